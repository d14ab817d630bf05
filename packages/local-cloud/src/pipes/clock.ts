import type { Clock } from "../clock/clock";

/**
 * A pause of the runner on `clock`: resolves after `ms`, or as soon as `signal` aborts (never rejects; an abort
 * means "stop waiting", as when a message arrives or the runner stops).
 */
export function nap(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return signal ? clock.sleep(ms, signal).catch(() => undefined) : clock.sleep(ms);
}
