import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
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

/** What can be published: a payment (serialised as JSON) or a raw body string. */
export type Publishable = PaymentBody | string;

const SQS_BATCH = 10;

/** Sends the bodies in order, ten per SendMessageBatch call; each call's entries arrive together. */
export async function publish(target: E2eTarget, bodies: readonly Publishable[]): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let start = 0; start < bodies.length; start += SQS_BATCH) {
    const chunk = bodies.slice(start, start + SQS_BATCH).map((item) => ({
      body: typeof item === "string" ? item : JSON.stringify(item),
      key: typeof item === "string" ? undefined : businessKeyOf(item),
    }));
    const result = await target.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: target.names.queueUrl,
        Entries: chunk.map((entry, i) => ({ Id: String(i), MessageBody: entry.body })),
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
