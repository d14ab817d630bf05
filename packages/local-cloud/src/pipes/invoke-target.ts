import { NO_LONGER_NEEDED } from "../clock/clock";
import { nap } from "./clock";
import { ExecutionStatus, RetryReason } from "./constants";
import type { PipeConfig } from "./config";
import type { Emit } from "./events";
import { isCustomerError } from "./customer-error";
import { isThrottling, throttleBackoffMs } from "./throttling";
import type { PipeStats, TargetResult } from "./types";

/** Longest pause between two calls of a target that keeps throwing. */
const MAX_BACKOFF_MS = 5000;

export type InvokeOutcome =
  | { kind: "result"; result: TargetResult }
  | { kind: "target-error"; error: string }
  | { kind: "aborted"; reason: typeof RetryReason.Stopped | typeof RetryReason.PipeTimeout };

/**
 * Runs the target once for a batch, within the pipe's execution limit. A failed execution is a result
 * (AWS leaves the retry to the queue). A target that throws is treated like a Pipes internal error
 * (e.g. a connection failure), which AWS retries itself: retried with backoff up to `targetErrorRetries` times.
 * A throttled call (throttling.ts) is retried with backoff without a count, until the execution limit or a stop.
 * A call refused as a client error (customer-error.ts) is not retried here: the batch fails at once.
 */
export async function invokeTarget(
  config: PipeConfig,
  input: unknown,
  batch: { id: string; count: number },
  stopSignal: AbortSignal,
  emit: Emit,
  stats: PipeStats,
): Promise<InvokeOutcome> {
  const { clock } = config;
  const execution = new AbortController();
  const abort = (reason: InvokeOutcome & { kind: "aborted" }): void => {
    if (!execution.signal.aborted) execution.abort(reason);
  };
  const onStop = (): void => abort({ kind: "aborted", reason: RetryReason.Stopped });
  stopSignal.addEventListener("abort", onStop, { once: true });
  if (stopSignal.aborted) onStop();
  const timerDone = new AbortController();
  void nap(clock, config.maximumExecutionMs, timerDone.signal).then(() => {
    if (!timerDone.signal.aborted) abort({ kind: "aborted", reason: RetryReason.PipeTimeout });
  });
  let throttled = 0;
  let errors = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      if (execution.signal.aborted) return execution.signal.reason as InvokeOutcome;
      stats.executions.started++;
      emit({ type: "execution-started", batchId: batch.id, count: batch.count, attempt });
      const startedAt = clock.now();
      const settled = await settle(config.target(input, { signal: execution.signal }), execution.signal);
      const durationMs = clock.now() - startedAt;
      if (settled.kind === "aborted") {
        stats.executions.aborted++;
        emit({ type: "execution-finished", batchId: batch.id, status: "ABORTED", durationMs });
        return execution.signal.reason as InvokeOutcome;
      }
      if (settled.kind === "ok") {
        const result = settled.value;
        countStatus(stats, result.status);
        emit({ type: "execution-finished", batchId: batch.id, status: result.status, durationMs, error: result.error, cause: result.cause });
        return { kind: "result", result };
      }
      if (settled.throttled) {
        stats.executions.throttled++;
        throttled++;
        emit({ type: "target-error", batchId: batch.id, attempt, error: settled.error, willRetry: true, throttled: true });
        await nap(clock, throttleBackoffMs(throttled, config.throttleBackoffMs), execution.signal);
        continue;
      }
      stats.executions.targetErrors++;
      errors++;
      const willRetry = !settled.customer && errors <= config.targetErrorRetries;
      emit({ type: "target-error", batchId: batch.id, attempt, error: settled.error, willRetry });
      if (!willRetry) return { kind: "target-error", error: settled.error };
      await nap(clock, Math.min(config.targetErrorBackoffMs * 2 ** (errors - 1), MAX_BACKOFF_MS), execution.signal);
    }
  } finally {
    timerDone.abort(NO_LONGER_NEEDED);
    stopSignal.removeEventListener("abort", onStop);
  }
}

type Settled = { kind: "ok"; value: TargetResult } | { kind: "error"; error: string; throttled: boolean; customer: boolean } | { kind: "aborted" };

/** Waits for the target, but no longer than the abort signal allows (a target may ignore its signal). */
function settle(call: Promise<TargetResult>, signal: AbortSignal): Promise<Settled> {
  // Removed once the call settles: a batch retried many times (throttled) would otherwise pile one listener per
  // call on its signal. Removed inside the existing handlers, so the settling takes no extra promise hop (the
  // simulation's seeded interleavings depend on them).
  let onAbort = (): void => undefined;
  const outcome = Promise.resolve(call).then(
    (value): Settled => {
      signal.removeEventListener("abort", onAbort);
      return isTargetResult(value) ? { kind: "ok", value } : { kind: "error", error: `the target returned ${JSON.stringify(value)}, not { status }`, throttled: false, customer: false };
    },
    (error: unknown): Settled => {
      signal.removeEventListener("abort", onAbort);
      return { kind: "error", error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), throttled: isThrottling(error), customer: isCustomerError(error) };
    },
  );
  if (signal.aborted) return Promise.resolve({ kind: "aborted" });
  const aborted = new Promise<Settled>((resolve) => {
    onAbort = () => resolve({ kind: "aborted" });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([outcome, aborted]);
}

function isTargetResult(value: unknown): value is TargetResult {
  const status = (value as TargetResult | undefined)?.status;
  return Object.values(ExecutionStatus).includes(status as ExecutionStatus);
}

function countStatus(stats: PipeStats, status: TargetResult["status"]): void {
  if (status === ExecutionStatus.Succeeded) stats.executions.succeeded++;
  else if (status === ExecutionStatus.Failed) stats.executions.failed++;
  else stats.executions.timedOut++;
}
