/** The default clock: wall time and real timers. */
import type { Clock } from "./types";

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error("aborted"), { name: "AbortError" });
}

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
