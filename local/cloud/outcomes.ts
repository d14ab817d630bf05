import type { HistoryEvent } from "../stepfunctions";
import { RecordOutcome, type OutcomeCounts, type OutcomeEvent } from "./types";

const OUTCOMES = new Set<string>(Object.values(RecordOutcome));

/**
 * The per-record outcomes of one execution of the pipeline state machine: the outputs of the states that end a
 * record's path (`{messageId, outcome, reason?, followers?}`). Followers (same body in the same batch) share the
 * leader's fate: duplicates when it was processed or a duplicate, quarantined (each by its own state, after the
 * Map) when it was quarantined, retried otherwise. Other state machines yield none.
 */
export function recordOutcomes(events: readonly HistoryEvent[], at: number): OutcomeEvent[] {
  const found: OutcomeEvent[] = [];
  for (const event of events) {
    if (!event.type.endsWith("StateExited")) continue;
    const output = event.details?.output as Record<string, unknown> | undefined;
    if (!output || typeof output !== "object" || typeof output.messageId !== "string" || !OUTCOMES.has(output.outcome as string)) continue;
    const outcome = output.outcome as RecordOutcome;
    found.push({
      type: "record-outcome",
      messageId: output.messageId,
      outcome,
      reason: typeof output.reason === "string" ? output.reason : undefined,
      detail: typeof output.detail === "string" ? output.detail : undefined,
      at,
    });
    // A quarantined leader's followers are quarantined after the Map, each reporting its own outcome.
    if (outcome === RecordOutcome.Quarantined) continue;
    const followerOutcome = outcome === RecordOutcome.Processed || outcome === RecordOutcome.Duplicate ? RecordOutcome.Duplicate : RecordOutcome.Retry;
    for (const follower of Array.isArray(output.followers) ? output.followers : []) {
      if (typeof follower !== "string") continue;
      found.push({ type: "record-outcome", messageId: follower, outcome: followerOutcome, detail: `same body as ${output.messageId} in this batch`, at });
    }
  }
  return found;
}

export function emptyCounts(): OutcomeCounts {
  return { processed: 0, duplicate: 0, quarantined: 0, retry: 0, quarantinedByReason: {} };
}

export function countOutcome(counts: OutcomeCounts, event: OutcomeEvent): void {
  counts[event.outcome] += 1;
  if (event.outcome === RecordOutcome.Quarantined) {
    const reason = event.reason ?? "unknown";
    counts.quarantinedByReason[reason] = (counts.quarantinedByReason[reason] ?? 0) + 1;
  }
}
