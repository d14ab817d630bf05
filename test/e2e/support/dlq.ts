import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, ReceiveMessageCommand, type Message } from "@aws-sdk/client-sqs";
import type { E2eTarget } from "./target";

/** A message found in the DLQ. */
export interface DlqEntry {
  /** The DLQ message's own id: for a redriven message, the id it had in the source queue. */
  readonly messageId: string;
  readonly body: string;
  /** Set by the state machine's quarantine; absent when the queue's redrive moved the message (`retries-exhausted`). */
  readonly reason?: string;
  readonly originalMessageId?: string;
  readonly businessKey?: string;
  readonly detail?: string;
}

/**
 * Drains the DLQ of this run's messages (bodies carrying the run id) and remembers them. Other messages are
 * made visible again at once and left alone, so a shared DLQ keeps what is not ours.
 */
export class DlqCollector {
  private readonly found = new Map<string, DlqEntry>();

  constructor(
    private readonly target: E2eTarget,
    private readonly owns: (body: string) => boolean,
  ) {}

  /** Receives until the DLQ shows nothing more of ours; returns every entry of ours seen so far. */
  async collect(): Promise<DlqEntry[]> {
    const { sqs } = this.target.clients;
    const QueueUrl = this.target.names.dlqUrl;
    for (;;) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl,
          MaxNumberOfMessages: 10,
          // Long polling asks every SQS server; a short poll on AWS samples only some of them.
          WaitTimeSeconds: this.target.receiveWaitSeconds,
          VisibilityTimeout: 30,
          MessageAttributeNames: ["All"],
        }),
      );
      const mine = Messages.filter((m) => this.owns(m.Body ?? ""));
      const others = Messages.filter((m) => !this.owns(m.Body ?? ""));
      for (const message of mine) this.found.set(message.MessageId!, toEntry(message));
      if (mine.length > 0) {
        await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: mine.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
      }
      if (others.length > 0) {
        await sqs.send(
          new ChangeMessageVisibilityBatchCommand({ QueueUrl, Entries: others.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle!, VisibilityTimeout: 0 })) }),
        );
      }
      if (mine.length === 0) return [...this.found.values()];
    }
  }
}

function toEntry(message: Message): DlqEntry {
  const attribute = (name: string) => message.MessageAttributes?.[name]?.StringValue;
  return {
    messageId: message.MessageId!,
    body: message.Body ?? "",
    reason: attribute("reason"),
    originalMessageId: attribute("originalMessageId"),
    businessKey: attribute("businessKey"),
    detail: attribute("detail"),
  };
}
