/** Options for {@link waitFor}. */
export interface WaitForOptions {
  /** Give up after this long (default 5,000 ms). */
  timeoutMs?: number;
  /** Pause between attempts (default 20 ms). */
  intervalMs?: number;
  /** Said in the error when the deadline passes, to tell which wait failed. */
  message?: string;
}

/**
 * Polls `fn` until it returns a value other than `undefined`, `null` or `false` (or a promise of one),
 * and returns that value. A throw counts as "not yet"; the last one is kept as the timeout error's cause.
 * Use it instead of fixed sleeps: it is as fast as the condition allows and fails with a clear message.
 */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let lastValue: unknown;
  for (;;) {
    try {
      const value = await fn();
      lastValue = value;
      if (value !== undefined && value !== null && value !== false) {
        return value as Exclude<T, undefined | null | false>;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.message ?? "condition";
      const seen = lastError === undefined ? `last value: ${safeJson(lastValue)}` : `last error: ${String(lastError)}`;
      throw new Error(`waitFor: ${what} not met within ${timeoutMs} ms (${seen})`, { cause: lastError });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
