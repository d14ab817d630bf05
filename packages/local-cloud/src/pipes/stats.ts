import { RunnerState } from "./constants";
import type { PipeStats } from "./types";

/** Fresh counters (mutated in place by the runner; `snapshot` copies them for callers). */
export function createStats(): PipeStats {
  return {
    state: RunnerState.Idle,
    inFlightBatches: 0,
    batches: 0,
    messagesReceived: 0,
    recordsFiltered: 0,
    recordsAcknowledged: 0,
    recordsLeftForRetry: 0,
    deleteFailures: 0,
    invalidResponses: 0,
    pollErrors: 0,
    executions: { started: 0, succeeded: 0, failed: 0, timedOut: 0, aborted: 0, targetErrors: 0, throttled: 0 },
  };
}

export function snapshot(stats: PipeStats): PipeStats {
  return { ...stats, executions: { ...stats.executions } };
}
