/**
 * Polls `condition` until it holds, failing after `timeoutMs` of real time with `message`. Yields with
 * setImmediate between checks, so no fixed sleep is involved.
 */
export async function waitFor(condition: () => boolean, message: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waitFor timed out after ${timeoutMs} ms: ${message}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
