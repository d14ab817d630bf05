import { randomUUID } from "node:crypto";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { isFifoQueue } from "@effectively-once/contract";
import { E2eError } from "./errors";
import { businessKeyOf, type PaymentBody } from "./messages";
import type { E2eTarget } from "./target";

/** One message the suite sent, as SQS acknowledged it. */
export interface Sent {
  readonly messageId: string;
  readonly body: string;
  /** The business key, for bodies built as payments; undefined for raw (e.g. invalid) bodies. */
  readonly key?: string;
}

/** A body sent exactly as written (e.g. `"amount":10.0`), with the business key it should yield, if any. */
export interface RawMessage {
  readonly raw: string;
  readonly key?: string;
  /** FIFO: its message group (default: the body's tenant, else one group). */
  readonly group?: string;
}

/** What can be published: a payment (serialised as JSON), a raw body string, or a raw body with its key. */
export type Publishable = PaymentBody | string | RawMessage;

function entryOf(item: Publishable): { body: string; key?: string; group?: string } {
  if (typeof item === "string") return { body: item };
  if (typeof (item as RawMessage).raw === "string") return { body: (item as RawMessage).raw, key: (item as RawMessage).key, group: (item as RawMessage).group };
  return { body: JSON.stringify(item), key: businessKeyOf(item as PaymentBody), group: (item as PaymentBody).tenantId };
}

/** A FIFO queue's ids for an entry: its group, and a deduplication id of its own (every send is a message). */
function fifoIds(queueUrl: string, entry: { group?: string }) {
  return isFifoQueue(queueUrl) ? { MessageGroupId: entry.group ?? "e2e", MessageDeduplicationId: randomUUID() } : {};
}

const SQS_BATCH = 10;

/** Sends the bodies in order, ten per SendMessageBatch call; each call's entries arrive together. */
export async function publish(target: E2eTarget, bodies: readonly Publishable[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let start = 0; start < bodies.length; start += SQS_BATCH) {
    const chunk = bodies.slice(start, start + SQS_BATCH).map(entryOf);
    const result = await target.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: target.names.queueUrl,
        Entries: chunk.map((entry, i) => ({ Id: String(i), MessageBody: entry.body, ...fifoIds(target.names.queueUrl, entry) })),
      }),
    );
    if (result.Failed?.length) {
      throw new E2eError(`SendMessageBatch refused ${result.Failed.length} entries: ${JSON.stringify(result.Failed)}`);
    }
    const ids = new Map((result.Successful ?? []).map((entry) => [entry.Id, entry.MessageId]));
    chunk.forEach((entry, i) => {
      const messageId = ids.get(String(i));
      if (!messageId) throw new E2eError(`SendMessageBatch returned no MessageId for entry ${i}`);
      sent.push({ messageId, body: entry.body, key: entry.key });
    });
  }
  return sent;
}
