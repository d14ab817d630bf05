import { SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { SentMessage } from "../observe";
import type { SampleMessage } from "./sample-stream";

export type PublishedMessage = SentMessage & { readonly kind: SampleMessage["kind"] };

/** Sends messages in SendMessageBatch calls of 10, in order; fails loudly if SQS refuses any entry. */
export async function publish(sqs: SQSClient, queueUrl: string, messages: readonly SampleMessage[]): Promise<PublishedMessage[]> {
  const sent: PublishedMessage[] = [];
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const sentAt = Date.now();
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body })) }));
    if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} message(s): ${result.Failed.map((f) => f.Message).join("; ")}`);
    for (const ok of result.Successful ?? []) {
      const m = chunk[Number(ok.Id)];
      sent.push({ messageId: ok.MessageId!, body: m.body, effectKey: m.effectKey, fingerprint: m.fingerprint, kind: m.kind, sentAt });
    }
  }
  return sent;
}
