import { setMaxListeners } from "node:events";

/** Runs N jobs with at most `limit` at once, stopping early when asked to. */
export async function runPool(count: number, limit: number, job: (index: number) => Promise<void>, stopped: () => boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count && !stopped()) {
      const i = next++;
      await job(i);
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.min(limit, count); w++) workers.push(worker());
  await Promise.all(workers);
}

/** An AbortController that also aborts when `parent` aborts; `dispose` unlinks it. */
export function childController(parent: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  // Every running iteration/task listens on it: up to 40 inline iterations, more in distributed maps.
  setMaxListeners(0, controller.signal);
  if (parent.aborted) controller.abort(parent.reason);
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener("abort", onAbort) };
}
