import { FATE_METRICS_TIMEOUT_SECONDS, PIPELINE_TEMPLATE as template } from "@effectively-once/statemachines";
import type { PropRule } from "./prop-rules";
import { invocationAttemptSeconds, LAMBDA_INIT_SECONDS } from "./invocation-budget";
import type { ResolvedPipelineProps } from "./props";
import { LONG_POLL_SECONDS } from "./retention";

/**
 * Claim attempts per record: the `Decide` state claims again while `$claimAttempts < 3` (a holder that vanished
 * or expired between our write and our read). A test pins this figure to the definition.
 */
export const CLAIM_ATTEMPTS = 3;

interface Retrier {
  readonly IntervalSeconds?: number;
  readonly MaxAttempts?: number;
  readonly BackoffRate?: number;
  readonly MaxDelaySeconds?: number;
}

/** How long one Task state can take at worst: every attempt at its longest, every retry wait at its longest. */
interface TaskBudget {
  readonly attempts: number;
  readonly backoffSeconds: number;
  readonly seconds: number;
}

/** Worst case of one record, with its parts, so the synth error can show the arithmetic. */
interface RecordBudget {
  readonly seconds: number;
  readonly claim: TaskBudget;
  readonly inspect: TaskBudget;
  readonly invoke: TaskBudget;
  readonly complete: TaskBudget;
  readonly release: TaskBudget;
  readonly quarantine: TaskBudget;
  /** Quarantining one follower of a quarantined leader, after the first Map (QuarantineFollowers). */
  readonly followerQuarantine: TaskBudget;
}

/**
 * Longest wait of one retrier: IntervalSeconds × BackoffRate^n for each retry (AWS defaults 1 s, 3 attempts,
 * ×2), each capped by MaxDelaySeconds. FULL jitter waits a random time up to that figure, so the figure is the bound.
 */
function retrierWaits(r: Retrier): { retries: number; seconds: number } {
  const retries = r.MaxAttempts ?? 3;
  const interval = r.IntervalSeconds ?? 1;
  const rate = r.BackoffRate ?? 2;
  let seconds = 0;
  for (let n = 0; n < retries; n += 1) seconds += Math.min(interval * rate ** n, r.MaxDelaySeconds ?? Infinity);
  return { retries, seconds };
}

type MapName = "ProcessBatch" | "QuarantineFollowers";

/** The Retry blocks of the definition with the two placeholders they may hold filled from the props. */
function retriersOf(state: string, p: ResolvedPipelineProps, map: MapName = "ProcessBatch"): Retrier[] {
  const maps = (template as { States: Record<MapName, { ItemProcessor: { States: Record<string, { Retry?: unknown }> } }> }).States;
  if (!(map in maps)) throw new Error(`pipeline.asl.json has no Map ${map}; update src/constructs/timing.ts`);
  const states = maps[map].ItemProcessor.States;
  if (!(state in states)) throw new Error(`pipeline.asl.json has no state ${state}; update src/constructs/timing.ts`);
  const retry = states[state].Retry ?? [];
  if (retry === "{{LedgerRetry}}") {
    return [{ IntervalSeconds: p.ledgerRetry.intervalSeconds, MaxAttempts: p.ledgerRetry.maxAttempts, BackoffRate: p.ledgerRetry.backoffRate }];
  }
  if (!Array.isArray(retry)) throw new Error(`pipeline.asl.json: ${state}.Retry is ${JSON.stringify(retry)}; update src/constructs/timing.ts`);
  const number = (r: Record<string, unknown>, field: string): number | undefined => {
    const value = field === "MaxAttempts" && r[field] === "{{LambdaRetries}}" ? p.lambdaRetries : r[field];
    if (value === undefined || (typeof value === "number" && Number.isFinite(value))) return value;
    // A placeholder this model does not know would make the bound NaN, and every comparison with it false.
    throw new Error(`pipeline.asl.json: ${state}.Retry ${field} is ${JSON.stringify(value)}; teach src/constructs/timing.ts its value`);
  };
  return retry.map((r: Record<string, unknown>) => ({
    IntervalSeconds: number(r, "IntervalSeconds"),
    BackoffRate: number(r, "BackoffRate"),
    MaxDelaySeconds: number(r, "MaxDelaySeconds"),
    MaxAttempts: number(r, "MaxAttempts"),
  }));
}

/** Several retriers count separately (each keeps its own counter), so the bound adds them all. */
function taskBudget(state: string, p: ResolvedPipelineProps, attemptSeconds: number, map: MapName = "ProcessBatch"): TaskBudget {
  const waits = retriersOf(state, p, map).map(retrierWaits);
  const attempts = 1 + waits.reduce((sum, w) => sum + w.retries, 0);
  const backoffSeconds = waits.reduce((sum, w) => sum + w.seconds, 0);
  return { attempts, backoffSeconds, seconds: attempts * attemptSeconds + backoffSeconds };
}

/**
 * The longest one record can keep its execution busy, read from the definition's Retry blocks:
 * up to CLAIM_ATTEMPTS × (Claim + Inspect), then Invoke (attempts × the function timeout + backoff), then the
 * longer of Complete and Release + Quarantine. Ledger and SQS calls count their retry waits only (a call takes
 * milliseconds); an invocation counts, per attempt, a cold start's Init (up to 10 s, which the function's timeout
 * does not count) + the function's timeout, which fires before the Task's own timeout (`invokeTimeoutSeconds`, 5 s
 * later, a backstop for a Lambda that never answers).
 */
export function worstRecordBudget(p: ResolvedPipelineProps): RecordBudget {
  const claim = taskBudget("Claim", p, 0);
  const inspect = taskBudget("Inspect", p, 0);
  const invoke = taskBudget("Invoke", p, invocationAttemptSeconds(p));
  const complete = taskBudget("Complete", p, 0);
  const release = taskBudget("Release", p, 0);
  const quarantine = taskBudget("Quarantine", p, 0);
  const followerQuarantine = taskBudget("QuarantineFollower", p, 0, "QuarantineFollowers");
  const seconds = CLAIM_ATTEMPTS * (claim.seconds + inspect.seconds) + invoke.seconds + Math.max(complete.seconds, release.seconds + quarantine.seconds);
  return { seconds, claim, inspect, invoke, complete, release, quarantine, followerQuarantine };
}

/**
 * The longest an execution can run, and how: `serial` records one after another, then `followerWaves` waves of follower
 * quarantines, then the fate metrics call (its TimeoutSeconds; it has no Retry).
 */
export interface ExecutionBudget {
  readonly seconds: number;
  readonly fateMetricsSeconds: number;
  readonly record: RecordBudget;
  /** Records run one after another at worst: waves of `maxConcurrency` (standard), or a whole batch of one message group (FIFO). */
  readonly serial: number;
  readonly followerWaves: number;
  /** One invocation per batch: the claim phase, the batch's invocation, then each record settled (perhaps invoked alone). */
  readonly batch?: { readonly claimPhase: number; readonly invoke: number; readonly settle: number };
}

/**
 * The worst case of one execution. Standard mode runs a batch's records `maxConcurrency` at a time, then quarantines
 * at most `batchSize − 1` followers of quarantined leaders in waves. FIFO mode runs one message group's records one
 * after another (statemachines/src/fifo.ts), and a batch may hold one group only: `batchSize` records in a row; it has no
 * followers.
 */
export function worstExecution(p: ResolvedPipelineProps): ExecutionBudget {
  const record = worstRecordBudget(p);
  const serial = p.fifo ? p.batchSize : Math.ceil(p.batchSize / p.maxConcurrency);
  const followerWaves = p.fifo ? 0 : Math.ceil((p.batchSize - 1) / p.maxConcurrency);
  const followers = followerWaves * record.followerQuarantine.seconds;
  const fateMetricsSeconds = FATE_METRICS_TIMEOUT_SECONDS;
  if (p.batchInvocation && !p.fifo) {
    // statemachines/src/batch.ts: every record claimed (or quarantined) in waves, one invocation for the batch, then
    // every record settled in waves, each perhaps invoked alone when the batch's answer gave it none.
    const claimPhase = serial * (CLAIM_ATTEMPTS * (record.claim.seconds + record.inspect.seconds) + record.quarantine.seconds);
    const settle = serial * (record.invoke.seconds + Math.max(record.complete.seconds, record.release.seconds + record.quarantine.seconds));
    const batch = { claimPhase, invoke: record.invoke.seconds, settle };
    return { seconds: claimPhase + batch.invoke + settle + followers + fateMetricsSeconds, fateMetricsSeconds, record, serial, followerWaves, batch };
  }
  return { seconds: serial * record.seconds + followers + fateMetricsSeconds, fateMetricsSeconds, record, serial, followerWaves };
}

/**
 * Timing rules that keep one claim, one invocation and one receive from overlapping another: the execution
 * outlives its slowest record, the function its invocation, and the lease ends before the message can reappear.
 */
export const TIMING_RULES: readonly PropRule[] = [
  {
    name: "function.timeoutSeconds.belowExecution",
    after: ["function.timeoutSeconds", "executionTimeoutSeconds"],
    check: (p) =>
      p.function.timeoutSeconds < p.executionTimeoutSeconds
        ? undefined
        : {
            prop: "function.timeoutSeconds",
            value: p.function.timeoutSeconds,
            reason: `is not below executionTimeoutSeconds (${p.executionTimeoutSeconds}); the execution would time out while the function still runs and the whole batch would come back`,
            fix: `set function.timeoutSeconds < ${p.executionTimeoutSeconds} or raise executionTimeoutSeconds`,
          },
  },
  {
    name: "executionTimeoutSeconds.worstRecord",
    after: ["function.timeoutSeconds.belowExecution", "batchSize", "maxConcurrency", "lambdaRetries", "ledgerRetry.intervalSeconds", "ledgerRetry.maxAttempts", "ledgerRetry.backoffRate", "batchInvocation.standardOnly"],
    check: (p) => {
      const w = worstExecution(p);
      if (p.executionTimeoutSeconds >= w.seconds) return undefined;
      const b = w.record;
      const one =
        `${CLAIM_ATTEMPTS} × (claim ${b.claim.seconds} + inspect ${b.inspect.seconds}) + ` +
        `invoke ${b.invoke.attempts} × (Init ${LAMBDA_INIT_SECONDS} + function timeout ${p.function.timeoutSeconds}) + ${b.invoke.backoffSeconds} backoff + ` +
        `max(complete ${b.complete.seconds}, release ${b.release.seconds} + quarantine ${b.quarantine.seconds})`;
      const batch = w.batch
        ? `claim phase ${w.serial} × (${CLAIM_ATTEMPTS} × (claim ${b.claim.seconds} + inspect ${b.inspect.seconds}) + quarantine ${b.quarantine.seconds}) = ${w.batch.claimPhase} + ` +
          `batch invoke ${w.batch.invoke} + settle ${w.serial} × (invoke alone ${b.invoke.seconds} + max(complete ${b.complete.seconds}, release ${b.release.seconds} + quarantine ${b.quarantine.seconds})) = ${w.batch.settle}` +
          `${w.followerWaves > 0 ? ` + ${w.followerWaves} × follower quarantine ${b.followerQuarantine.seconds}` : ""}`
        : undefined;
      const arithmetic =
        (batch ??
          (p.fifo
            ? `${w.serial} records of one message group one after another × (${one})`
            : `${w.serial > 1 ? `${w.serial} waves × (` : ""}${one}${w.serial > 1 ? ")" : ""}` +
              `${w.followerWaves > 0 ? ` + ${w.followerWaves} × follower quarantine ${b.followerQuarantine.seconds}` : ""}`)) + ` + fate metrics ${w.fateMetricsSeconds}`;
      return {
        prop: "executionTimeoutSeconds",
        value: p.executionTimeoutSeconds,
        reason: `is below the worst case of ${p.fifo ? "a batch whose records all share one message group" : w.batch ? "a batch invoked once" : "one record"} (${arithmetic} = ${w.seconds} s); a record still retrying would be cut off and its whole batch would come back`,
        fix:
          `set executionTimeoutSeconds >= ${w.seconds} (and visibilityTimeoutSeconds >= ${6 * w.seconds}), or lower ${p.fifo ? "batchSize, " : ""}function.timeoutSeconds, lambdaRetries or ledgerRetry` +
          // One invocation per batch is the default: its opt-out holds one invocation less per record.
          (w.batch ? `, or set batchInvocation: false (one invocation per record: ${worstExecution({ ...p, batchInvocation: false }).seconds} s)` : ""),
      };
    },
  },
  {
    name: "leaseSeconds.beforeReappearance",
    after: ["visibilityTimeoutSeconds", "maximumBatchingWindowSeconds"],
    check: (p) => {
      // A record's visibility timeout starts at its receive; the pipe may go on gathering its batch for the batching
      // window and one more long poll (up to 20 s on a quiet queue) before the claim is written.
      const leaseLimit = p.visibilityTimeoutSeconds - p.maximumBatchingWindowSeconds - LONG_POLL_SECONDS;
      if (p.leaseSeconds < leaseLimit) return undefined;
      return {
        prop: "leaseSeconds",
        value: p.leaseSeconds,
        reason:
          `is not below visibilityTimeoutSeconds − maximumBatchingWindowSeconds − one long poll (${p.visibilityTimeoutSeconds} − ${p.maximumBatchingWindowSeconds} − ${LONG_POLL_SECONDS} = ${leaseLimit}); ` +
          "a message's visibility timeout runs while the pipe gathers its batch (the window, then a long poll of up to 20 s), so it could reappear and find its own live claim",
        fix: leaseLimit > 1 ? `set leaseSeconds < ${leaseLimit}, or raise visibilityTimeoutSeconds` : "raise visibilityTimeoutSeconds",
      };
    },
  },
];
