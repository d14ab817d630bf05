import type { Clock } from "../clock/clock";
import type { PipeEvent } from "./types";

/** A {@link PipeEvent} without the fields the hub fills in. */
type PipeEventInput = PipeEvent extends infer E ? (E extends PipeEvent ? Omit<E, "pipe" | "at"> : never) : never;
export type Emit = (event: PipeEventInput) => void;

/** Fans events out to listeners; a listener that throws is ignored so it cannot break the pipe. */
export function createEventHub(pipe: string, clock: Clock) {
  const listeners = new Set<(event: PipeEvent) => void>();
  const emit: Emit = (input) => {
    const event = { ...input, pipe, at: clock.now() } as PipeEvent;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // observers must not change what the pipe does
      }
    }
  };
  const subscribe = (listener: (event: PipeEvent) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return { emit, subscribe };
}
