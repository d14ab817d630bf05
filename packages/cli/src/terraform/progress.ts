/** Progress lines on stderr: one per step, with its duration, so a slow step is easy to spot. */
export type Log = (line: string) => void;

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export async function timed<T>(log: Log, step: string, run: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await run();
    log(`plan: ${step} (${formatDuration(performance.now() - started)})`);
    return result;
  } catch (error) {
    log(`plan: ${step} FAILED after ${formatDuration(performance.now() - started)}`);
    throw error;
  }
}
