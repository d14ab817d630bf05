import { GetQueueAttributesCommand, SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { setTimeout as sleep } from "node:timers/promises";
import type { SentMessage } from "../observe";
import { LoadError } from "./errors";
import type { LoadKind, LoadMessage } from "./generator";

/** A message the soak sent: its id, body and attributes, with the kind the generator drew. */
export type LoadSent = SentMessage & {
  /** The kind the generator drew. */
  readonly kind: LoadKind;
};

export interface PublishOptions {
  readonly sqs: SQSClient;
  readonly queueUrl: string;
  readonly messages: readonly LoadMessage[];
  /**
   * Back-pressure: keep at most about this many messages in the queue (visible + in flight), so the producer
   * never outruns the pipeline by minutes. 0 = no limit.
   */
  readonly maxBacklog: number;
  /** Messages per second; 0 = as fast as the backlog allows. */
  readonly ratePerSecond: number;
  /** SendMessageBatch calls in flight at once (default 2). */
  readonly concurrency?: number;
  /** Called after each batch is sent, with the running total. */
  readonly onSent?: (sent: number) => void;
  readonly signal?: AbortSignal;
}

/** How often the queue depth is read while the producer is ahead (ms). */
const DEPTH_POLL_MS = 50;

/**
 * Sends the messages in SendMessageBatch calls of 10, in stream order per sender, pacing to `ratePerSecond` and
 * waiting while the queue holds `maxBacklog` messages or more. Fails loudly if SQS refuses an entry.
 */
export async function publish(options: PublishOptions): Promise<LoadSent[]> {
  const { sqs, queueUrl, messages } = options;
  const sent: LoadSent[] = new Array(messages.length);
  const startedAt = Date.now();
  let next = 0;
  let done = 0;
  // The depth estimate: last depth read plus what was sent since; re-read only when it reaches the limit.
  let estimate = 0;

  const depth = async (): Promise<number> => {
    const names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] as const;
    const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: [...names] }));
    return names.reduce((sum, name) => sum + Number(Attributes[name] ?? 0), 0);
  };

  const waitForRoom = async (count: number): Promise<void> => {
    if (options.maxBacklog <= 0) return;
    while (estimate + count > options.maxBacklog) {
      estimate = await depth();
      if (estimate + count <= options.maxBacklog) return;
      await sleep(DEPTH_POLL_MS, undefined, { signal: options.signal });
    }
  };

  const pace = async (index: number): Promise<void> => {
    if (options.ratePerSecond <= 0) return;
    const due = startedAt + (index / options.ratePerSecond) * 1000;
    const wait = due - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal: options.signal });
  };

  const sender = async (): Promise<void> => {
    while (next < messages.length) {
      options.signal?.throwIfAborted();
      const from = next;
      const chunk = messages.slice(from, from + 10);
      next += chunk.length;
      await pace(from);
      await waitForRoom(chunk.length);
      estimate += chunk.length;
      const sentAt = Date.now();
      const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body })) }));
      if (result.Failed?.length) throw new LoadError(`SQS refused ${result.Failed.length} message(s): ${result.Failed.map((f) => f.Message).join("; ")}`);
      for (const ok of result.Successful ?? []) {
        const j = Number(ok.Id);
        const m = chunk[j];
        sent[from + j] = { messageId: ok.MessageId!, body: m.body, effectKey: m.effectKey, fingerprint: m.fingerprint, kind: m.kind, sentAt };
      }
      done += chunk.length;
      options.onSent?.(done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 2) }, sender));
  return sent;
}
