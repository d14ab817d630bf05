import type { Message } from "@aws-sdk/client-sqs";
import { nap } from "./clock";
import { PipeLimits } from "./constants";
import type { SqsSource } from "./sqs-source";
import type { Clock } from "../clock/clock";

/** Pace of short polls in the last second of a batching window (SQS long polls wait whole seconds only). */
const SHORT_POLL_PACE_MS = 50;

interface CollectOptions {
  source: SqsSource;
  clock: Clock;
  batchSize: number;
  windowMs: number;
  /** Aborting ends the collection: what was already received is returned, to be processed, not lost. */
  signal: AbortSignal;
}

interface CollectedBatch {
  messages: Message[];
  /** Clock time at which the first message of the batch arrived. */
  startedAt: number;
  /** A receive that failed after the batch had started (the batch is still returned). */
  error?: unknown;
}

/**
 * Gathers one batch the way Pipes polls a standard queue: long-poll until a first message arrives, then keep
 * receiving until the batch is full, the batching window (counted from that first message) has passed, or
 * the Step Functions payload limit is reached (measured on the messages' JSON, close to the records' size; the
 * exact cut is payload-split.ts's). With a window of 0, one receive makes the batch.
 * Returns undefined when aborted before any message arrived; throws when that first receive fails.
 */
export async function collectBatch(options: CollectOptions): Promise<CollectedBatch | undefined> {
  const { source, clock, batchSize, windowMs, signal } = options;
  const perCall = (wanted: number): number => Math.min(PipeLimits.SQS_MAX_PER_CALL, wanted);
  let first: Message[] = [];
  while (first.length === 0) {
    if (signal.aborted) return undefined;
    try {
      first = await source.receive(perCall(batchSize), PipeLimits.MAX_WAIT_TIME_SECONDS, signal);
    } catch (error) {
      if (signal.aborted) return undefined;
      throw error;
    }
  }
  const batch: CollectedBatch = { messages: [...first], startedAt: clock.now() };
  if (windowMs <= 0) return batch;
  const deadline = batch.startedAt + windowMs;
  let chars = first.reduce((sum, m) => sum + messageChars(m), 0);
  while (batch.messages.length < batchSize && chars < PipeLimits.STEP_FUNCTIONS_MAX_INPUT_CHARS && !signal.aborted) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) break;
    const waitSeconds = Math.min(PipeLimits.MAX_WAIT_TIME_SECONDS, Math.floor(remaining / 1000));
    let received: Message[];
    try {
      received = await source.receive(perCall(batchSize - batch.messages.length), waitSeconds, signal);
    } catch (error) {
      if (!signal.aborted) batch.error = error;
      break;
    }
    batch.messages.push(...received);
    chars += received.reduce((sum, m) => sum + messageChars(m), 0);
    if (received.length === 0 && waitSeconds === 0) await nap(clock, Math.min(remaining, SHORT_POLL_PACE_MS), signal);
  }
  return batch;
}

/** JSON characters of a received message: the record built from it is about as long. */
function messageChars(message: Message): number {
  return JSON.stringify(message).length;
}
