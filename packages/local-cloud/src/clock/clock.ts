/**
 * The one time source of the local cloud's services: the Step Functions interpreter, the pipes, and the
 * simulation's virtual clock (tools/sim) implement or take it. The default is the real clock; tests pass a fake
 * one and the simulation its virtual time. (The local cloud's shared wall clock, which a test moves forward, is a
 * `SharedClock`: it has no `sleep`.)
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock; rejects with the signal's reason when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The reason to abort a signal with when its waits are merely no longer needed (the work they raced finished):
 * `abort()` without a reason builds a DOMException, stack trace included, once per call.
 */
export const NO_LONGER_NEEDED = "no longer needed";

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error("aborted"), { name: "AbortError" });
}

/** The default clock: wall time and real timers. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  },
};
