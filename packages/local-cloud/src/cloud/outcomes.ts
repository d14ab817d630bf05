import type { HistoryEvent } from "../stepfunctions";
import { fatesOfStateOutput } from "@effectively-once/contract";
import { type OutcomeCounts, type OutcomeEvent } from "./types";
import { RecordOutcome } from "@effectively-once/contract";

/**
 * The per-record outcomes of one execution: the raw outputs of its exited states, read by the contract's rule
 * (`packages/contract/src/outcomes.ts`: a record's fate and its in-batch followers'). Other state machines yield none.
 * One fate per record and execution, the last reported: with one invocation per batch a record decided in the claim
 * phase reports its outcome there and again from the settle phase, which passes it on (statemachines/src/batch.ts).
 */
export function recordOutcomes(events: readonly HistoryEvent[], at: number): OutcomeEvent[] {
  const found = new Map<string, OutcomeEvent>();
  for (const event of events) {
    if (!event.type.endsWith("StateExited")) continue;
    for (const fate of fatesOfStateOutput(event.details?.output)) found.set(fate.messageId, { type: "record-outcome", ...fate, at });
  }
  return [...found.values()];
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
