/**
 * The execution event history. Event ids are always counted (AWS causes quote "entered at the event id #N"),
 * but events are only stored when history is on, so a disabled history allocates nothing per state.
 */
import type { Clock } from "../../clock/clock";
import type { HistoryEvent } from "../types";

/** The part of a branch/iteration the history needs: the id of its last event (AWS previousEventId chains). */
export interface EventCursor {
  lastEventId: number;
}

export class History {
  readonly events: HistoryEvent[] = [];
  private seq = 0;
  constructor(
    /** Whether events are stored. Check it before building details objects. */
    readonly on: boolean,
    private readonly clock: Clock,
  ) {}

  /** Appends one event (if on) after the cursor's last event and moves the cursor. Returns the event id. */
  add(cursor: EventCursor, type: string, details?: Record<string, unknown>): number {
    const id = ++this.seq;
    if (this.on) {
      const event: HistoryEvent = { id, previousEventId: cursor.lastEventId, timestamp: this.clock.now(), type };
      if (details !== undefined) event.details = details;
      this.events.push(event);
    }
    cursor.lastEventId = id;
    return id;
  }
}
