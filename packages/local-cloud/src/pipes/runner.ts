import { NO_LONGER_NEEDED } from "../clock/clock";
import { collectBatch } from "./collect-batch";
import { nap } from "./clock";
import { resolveConfig } from "./config";
import { RunnerState } from "./constants";
import { DrainTimeoutError } from "./errors";
import { createEventHub } from "./events";
import { processBatch } from "./process-batch";
import type { BatchContext } from "./process-batch";
import { createSqsSource } from "./sqs-source";
import { createStats, snapshot } from "./stats";
import type { PipeRunner, PipeRunnerOptions } from "./types";

/**
 * Creates the local EventBridge Pipes runner for an SQS source and a Step Functions target.
 *
 * Each of `concurrency` pollers long-polls the queue, gathers a batch (`batchSize`, batching window), drops and
 * deletes the records no filter matches, renders the input template per record, invokes the target, and deletes
 * the records the target acknowledged (all of them, or all but the `batchItemFailures` of the execution output).
 * Everything else stays on the queue: its visibility timeout brings it back and its redrive policy moves it to
 * the DLQ, as on AWS. Throws `PipeConfigError` (or a pattern error wrapped in it) for invalid options.
 *
 * @example
 * const pipe = createPipeRunner({ name: "orders", sqs, queueUrl, queueArn, region: "us-east-1", batchSize: 10,
 *   maximumBatchingWindowInSeconds: 1, invocationType: "REQUEST_RESPONSE", target: runExpressSync });
 * pipe.start();
 * await pipe.drain();
 * await pipe.stop();
 */
export function createPipeRunner(options: PipeRunnerOptions): PipeRunner {
  const config = resolveConfig(options);
  const { clock } = config;
  const hub = createEventHub(config.name, clock);
  if (options.onEvent) hub.subscribe(options.onEvent);
  const stats = createStats();
  const source = createSqsSource(options.sqs, config.queueUrl);
  const background = new Set<Promise<unknown>>();
  const inFlight = new Set<Promise<void>>();
  let pollAbort = new AbortController();
  let stopAbort = new AbortController();
  let pollers: Promise<void>[] = [];
  let stopping: Promise<void> | undefined;
  let batchCounter = 0;
  // Woken whenever a batch leaves the in-flight set, so drain() need not wait for its next poll interval.
  let batchSettled = new Set<() => void>();
  const notifyBatchSettled = (): void => {
    const waiters = batchSettled;
    batchSettled = new Set();
    for (const wake of waiters) wake();
  };

  const context = (): BatchContext => ({ config, source, emit: hub.emit, stats, stopSignal: stopAbort.signal, background });

  async function poll(): Promise<void> {
    const signal = pollAbort.signal;
    while (!signal.aborted) {
      let batch;
      try {
        batch = await collectBatch({ source, clock, batchSize: config.batchSize, windowMs: config.windowMs, signal });
      } catch (error) {
        stats.pollErrors++;
        hub.emit({ type: "poll-error", error: describe(error) });
        await nap(clock, config.pollErrorBackoffMs, signal);
        continue;
      }
      if (!batch) continue;
      if (batch.error !== undefined) {
        stats.pollErrors++;
        hub.emit({ type: "poll-error", error: describe(batch.error) });
      }
      const batchId = `${config.name}-${++batchCounter}`;
      const running = processBatch(context(), batchId, batch.messages)
        .catch((error: unknown) => {
          // Not expected (run-time problems are events); the messages stay on the queue either way.
          stats.pollErrors++;
          hub.emit({ type: "poll-error", error: `batch ${batchId}: ${describe(error)}` });
        })
        .finally(() => {
          inFlight.delete(running);
          stats.inFlightBatches = inFlight.size;
          notifyBatchSettled();
        });
      inFlight.add(running);
      stats.inFlightBatches = inFlight.size;
      await running;
    }
  }

  async function shutdown(gracePeriodMs: number): Promise<void> {
    stats.state = RunnerState.Stopping;
    pollAbort.abort();
    // Pollers end once their current batch is done (a batch cut short by the abort is still processed).
    const settled = Promise.all(pollers)
      .then(() => Promise.all([...background]))
      .then(() => true);
    const graceOver = new AbortController();
    const finishedInTime = await Promise.race([settled, nap(clock, gracePeriodMs, graceOver.signal).then(() => false)]);
    graceOver.abort();
    if (!finishedInTime) stopAbort.abort();
    await Promise.all([...pollers, ...inFlight, ...background]);
    pollers = [];
    stats.state = RunnerState.Stopped;
    hub.emit({ type: "stopped" });
  }

  return {
    start() {
      if (stats.state === RunnerState.Running || stats.state === RunnerState.Stopping) return;
      pollAbort = new AbortController();
      stopAbort = new AbortController();
      stopping = undefined;
      stats.state = RunnerState.Running;
      hub.emit({ type: "started", concurrency: config.concurrency });
      pollers = Array.from({ length: config.concurrency }, () => poll());
    },

    stop(stopOptions) {
      if (stats.state !== RunnerState.Running && stats.state !== RunnerState.Stopping) return Promise.resolve();
      stopping ??= shutdown(stopOptions?.gracePeriodMs ?? config.stopGracePeriodMs);
      return stopping;
    },

    stats: () => snapshot(stats),

    subscribe: hub.subscribe,

    async drain(drainOptions) {
      const timeoutMs = drainOptions?.timeoutMs ?? 60_000;
      const pollIntervalMs = drainOptions?.pollIntervalMs ?? 100;
      const deadline = clock.now() + timeoutMs;
      let depth = Number.NaN;
      for (;;) {
        if (inFlight.size === 0 && background.size === 0) {
          depth = await source.approximateDepth();
          if (depth === 0 && inFlight.size === 0) return;
        }
        if (clock.now() >= deadline) {
          throw new DrainTimeoutError(
            `pipe ${config.name}: not drained after ${timeoutMs} ms (queue depth ${Number.isNaN(depth) ? "unknown" : depth}, ` +
              `${inFlight.size} batch(es) in flight)`,
          );
        }
        const wake = new AbortController();
        const settled = new Promise<void>((resolve) => batchSettled.add(resolve));
        await Promise.race([nap(clock, pollIntervalMs, wake.signal), settled]);
        wake.abort(NO_LONGER_NEEDED);
      }
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
