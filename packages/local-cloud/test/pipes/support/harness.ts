import { createPipeRunner } from "../../../src/pipes";
import type { PipeEvent, PipeRunner, PipeRunnerOptions, TargetContext, TargetResult } from "../../../src/pipes";
import { waitFor } from "@effectively-once/testing";
import { FakeClock } from "./fake-clock";
import { InMemorySqs } from "./in-memory-sqs";

export const QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:orders";
export const QUEUE_URL = "http://sqs.us-east-1.localhost:4566/000000000000/orders";

type Responder = (input: unknown, ctx: TargetContext) => Promise<TargetResult>;

export interface Harness {
  clock: FakeClock;
  sqs: InMemorySqs;
  runner: PipeRunner;
  events: PipeEvent[];
  /** Inputs the target received, in order. */
  inputs: unknown[];
  /** Signals of the target calls, in order. */
  signals: AbortSignal[];
  /** Replaces how the target answers (default: SUCCEEDED with no output). */
  respond(responder: Responder): void;
  eventsOf<T extends PipeEvent["type"]>(type: T): Extract<PipeEvent, { type: T }>[];
}

/** A runner wired to an in-memory queue, a fake clock and a scripted target. */
export function createHarness(options: Partial<PipeRunnerOptions> = {}, visibilityTimeoutSeconds = 30): Harness {
  const clock = new FakeClock();
  const sqs = new InMemorySqs(clock, visibilityTimeoutSeconds);
  const events: PipeEvent[] = [];
  const inputs: unknown[] = [];
  const signals: AbortSignal[] = [];
  let responder: Responder = async () => ({ status: "SUCCEEDED" });
  const runner = createPipeRunner({
    name: "orders-pipe",
    sqs: sqs.client,
    queueUrl: QUEUE_URL,
    queueArn: QUEUE_ARN,
    region: "us-east-1",
    batchSize: 10,
    maximumBatchingWindowInSeconds: 0,
    invocationType: "REQUEST_RESPONSE",
    concurrency: 1,
    clock,
    target: (input, ctx) => {
      inputs.push(input);
      signals.push(ctx.signal);
      return responder(input, ctx);
    },
    onEvent: (event) => events.push(event),
    ...options,
  });
  return {
    clock,
    sqs,
    runner,
    events,
    inputs,
    signals,
    respond: (r) => {
      responder = r;
    },
    eventsOf: <T extends PipeEvent["type"]>(type: T) => events.filter((e): e is Extract<PipeEvent, { type: T }> => e.type === type),
  };
}

/** A promise with its resolve function exposed. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Waits (real time, short interval) until `condition` holds; the fake clock does not move meanwhile. */
export function until(condition: () => boolean, message: string): Promise<unknown> {
  return waitFor(() => condition(), { message, intervalMs: 1, timeoutMs: 3000 });
}
