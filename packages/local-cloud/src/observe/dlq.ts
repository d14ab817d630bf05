import { ChangeMessageVisibilityBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { DlqAttribute, DlqReason } from "@effectively-once/contract";

/** A message in the dead-letter queue, with the reason the pipeline gave it. */
export interface DlqMessage {
  /** The DLQ copy's own SQS message id. */
  readonly messageId: string;
  /** The body, unchanged from what the producer sent. */
  readonly body: string;
  /** `invalid-message`, `payload-mismatch`, `rejected`, or `retries-exhausted` when the queue's redrive moved it. */
  readonly reason: string;
  /** The source queue's message id, when the workflow quarantined it (absent after the queue's own redrive). */
  readonly originalMessageId?: string;
  /** The ledger key (canonical JSON of its parts), when the body yielded one. */
  readonly businessKey?: string;
  /** One sentence on why (e.g. the field that broke its rule, or the function's error message). */
  readonly detail?: string;
  /** When the copy entered the DLQ (SQS `SentTimestamp`, epoch ms). */
  readonly sentAt: number;
}

/**
 * Reads every message in the DLQ without consuming it: each is received with a visibility timeout long enough for
 * one scan, then made visible again.
 */
export async function peekDlq(sqs: SQSClient, queueUrl: string, options: { max?: number } = {}): Promise<DlqMessage[]> {
  const max = options.max ?? 10_000;
  const found = new Map<string, DlqMessage>();
  const handles: { Id: string; ReceiptHandle: string }[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60, WaitTimeSeconds: 0, MessageAttributeNames: ["All"], MessageSystemAttributeNames: ["SentTimestamp"] }),
    );
    if (Messages.length === 0 || found.size >= max) break;
    for (const m of Messages) {
      handles.push({ Id: String(handles.length), ReceiptHandle: m.ReceiptHandle! });
      if (found.has(m.MessageId!)) continue;
      const attribute = (name: string) => m.MessageAttributes?.[name]?.StringValue;
      found.set(m.MessageId!, {
        messageId: m.MessageId!,
        body: m.Body ?? "",
        reason: attribute(DlqAttribute.Reason) ?? DlqReason.RetriesExhausted,
        originalMessageId: attribute(DlqAttribute.OriginalMessageId),
        businessKey: attribute(DlqAttribute.BusinessKey),
        detail: attribute(DlqAttribute.Detail),
        sentAt: Number(m.Attributes?.SentTimestamp ?? 0),
      });
    }
  }
  for (let i = 0; i < handles.length; i += 10) {
    const Entries = handles.slice(i, i + 10).map((h, j) => ({ ...h, Id: String(j), VisibilityTimeout: 0 }));
    await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries })).catch(() => undefined);
  }
  return [...found.values()];
}
