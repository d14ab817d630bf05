/** Retry and Catch: error-name matching, retry delays and the retry loop. */
import { isUncatchable, StatesError, StatesErrorName, toStatesError } from "../errors";
import type { Catcher, Retrier } from "../definition/compiled";
import type { Run, StateInfo, Thread } from "./context";

/**
 * Whether an ErrorEquals list matches an error name. `States.ALL` matches every catchable error;
 * `States.TaskFailed` matches every catchable error except `States.Timeout`; States.Runtime matches nothing
 * (terminal errors of other names are never offered to a matcher: see `StatesError.terminal`).
 */
export function errorMatches(errorEquals: readonly string[], error: string): boolean {
  if (isUncatchable(error)) return false;
  for (const name of errorEquals) {
    if (name === error || name === StatesErrorName.All) return true;
    if (name === StatesErrorName.TaskFailed && error !== StatesErrorName.Timeout) return true;
  }
  return false;
}

/**
 * Delay before retry number `attempt` (0-based): IntervalSeconds × BackoffRate^attempt, capped by
 * MaxDelaySeconds; FULL jitter picks uniformly in [0, delay].
 */
export function retryDelayMs(retrier: Retrier, attempt: number, random: () => number = Math.random): number {
  let seconds = retrier.intervalSeconds * Math.pow(retrier.backoffRate, attempt);
  if (retrier.maxDelaySeconds !== undefined) seconds = Math.min(seconds, retrier.maxDelaySeconds);
  if (retrier.jitter === "FULL") seconds = random() * seconds;
  return Math.round(seconds * 1000);
}

/** Index of the first Catcher that handles `error`, or -1. */
export function findCatcher(catchers: readonly Catcher[] | undefined, error: string): number {
  return catchers ? catchers.findIndex((c) => errorMatches(c.errorEquals, error)) : -1;
}

/** Thrown to unwind a thread whose signal aborted (not an execution error). */
export class ThreadAborted extends Error {
  constructor() {
    super("aborted");
    this.name = "ThreadAborted";
  }
}

/**
 * Runs `attempt` until it succeeds, or fails with an error no retrier retries any more.
 * The first retrier whose ErrorEquals matches decides; once its MaxAttempts are used, retrying stops.
 * `onError` sees every failure (for history events and cause decoration) and may replace the error.
 */
export async function runWithRetry<T>(
  retriers: readonly Retrier[] | undefined,
  run: Run,
  thread: Thread,
  info: StateInfo,
  attempt: () => Promise<T>,
  onError: (err: StatesError) => StatesError,
): Promise<T> {
  let counts: number[] | undefined;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (thread.signal.aborted) throw new ThreadAborted();
      if (e instanceof ThreadAborted) throw e;
      const err = onError(toStatesError(e));
      if (!retriers || err.terminal) throw err;
      const index = retriers.findIndex((r) => errorMatches(r.errorEquals, err.error));
      if (index < 0) throw err;
      // TestState decides the retry instead of waiting for it (runtime/probe.ts).
      if (run.probe) throw run.probe.retrier(index, retriers[index], err) ?? err;
      counts ??= new Array<number>(retriers.length).fill(0);
      const retrier = retriers[index];
      if (counts[index] >= retrier.maxAttempts) throw err;
      const delay = retryDelayMs(retrier, counts[index]);
      counts[index]++;
      info.RetryCount++;
      try {
        await run.clock.sleep(delay, thread.signal);
      } catch {
        throw new ThreadAborted();
      }
    }
  }
}
