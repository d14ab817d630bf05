import { createHash, randomUUID } from "node:crypto";
import { SendMessageBatchCommand, type SendMessageBatchRequestEntry, type SQSClient } from "@aws-sdk/client-sqs";
import { isFifoQueue } from "@effectively-once/contract";
import type { SentMessage } from "../observe";
import type { SampleMessage } from "./sample-stream";

export type PublishedMessage = SentMessage & { readonly kind: SampleMessage["kind"] };

/** A message to publish, with its FIFO group if the producer names one. */
export type Publishable = SampleMessage & { readonly groupId?: string };

/**
 * A FIFO queue's ids for a message: its group (the producer's; else one per business key, so one entity's messages
 * keep their order) and a deduplication id of its own (every send here is a message: repeats are sent on purpose).
 */
function fifoFields(m: Publishable): Pick<SendMessageBatchRequestEntry, "MessageGroupId" | "MessageDeduplicationId"> {
  const group = m.groupId ?? (m.effectKey ? createHash("sha256").update(m.effectKey).digest("hex").slice(0, 32) : "no-key");
  return { MessageGroupId: group, MessageDeduplicationId: randomUUID() };
}

/** Sends messages in SendMessageBatch calls of 10, in order; fails loudly if SQS refuses any entry. */
export async function publish(sqs: SQSClient, queueUrl: string, messages: readonly Publishable[]): Promise<PublishedMessage[]> {
  const sent: PublishedMessage[] = [];
  const fifo = isFifoQueue(queueUrl);
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const sentAt = Date.now();
    const entries = chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body, ...(fifo ? fifoFields(m) : {}) }));
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
    if (result.Failed?.length) throw new Error(`SQS refused ${result.Failed.length} message(s): ${result.Failed.map((f) => f.Message).join("; ")}`);
    // In the entries' order (a batch's answer need not be): the sent list is the groups' order.
    for (const ok of [...(result.Successful ?? [])].sort((a, b) => Number(a.Id) - Number(b.Id))) {
      const m = chunk[Number(ok.Id)];
      const group = entries[Number(ok.Id)].MessageGroupId;
      sent.push({ messageId: ok.MessageId!, body: m.body, effectKey: m.effectKey, fingerprint: m.fingerprint, kind: m.kind, sentAt, ...(group === undefined ? {} : { groupId: group }) });
    }
  }
  return sent;
}
