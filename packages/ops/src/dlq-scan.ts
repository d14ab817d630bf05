import { ChangeMessageVisibilityBatchCommand, GetQueueAttributesCommand, ReceiveMessageCommand, type Message } from "@aws-sdk/client-sqs";
import { awsCall } from "./aws-errors";
import type { KeyDeriver } from "./business-key";
import { quarantineAuthor, toDlqEntry } from "./dlq-entry";
import { hasOutput, requireOutput } from "./outputs";
import { type DlqEntry, type OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";
import { isFifoQueue } from "@effectively-once/contract";

/**
 * How the DLQ is read without consuming it.
 *
 * Receiving a message hides it for the visibility timeout. Receiving with `VisibilityTimeout: 0` leaves every
 * message visible, but then each receive may hand back the same first messages again, so a scan could never get
 * past the first ten. Instead the scan *holds* what it receives (a short visibility timeout, `holdSeconds`), so
 * each receive returns messages not seen yet, and at the end puts every message it did not delete back at once
 * (`ChangeMessageVisibility` to 0). If the CLI dies in between, the messages reappear by themselves after
 * `holdSeconds`. The DLQ has no redrive policy of its own, so the receive counts this adds move nothing.
 * The scan stops at `max` messages, when the queue's approximate count is reached and a receive comes back
 * empty, or after one empty long poll (AWS short polls sample a subset of servers and may miss messages).
 */
export interface DlqScanOptions {
  /** Stop after this many distinct messages. */
  readonly max: number;
  /** Visibility timeout while the scan holds messages (default 30 s). */
  readonly holdSeconds?: number;
  readonly deriveKey: KeyDeriver;
}

export interface HeldMessage {
  readonly entry: DlqEntry;
  /** The latest receipt handle: after a repeated receive only the newest one deletes. */
  readonly receiptHandle: string;
  /** The message as received (attributes included). */
  readonly message: Message;
}

export interface DlqScan {
  readonly queueUrl: string;
  /** Received messages in the order received, one per messageId. */
  readonly held: readonly HeldMessage[];
  /** ApproximateNumberOfMessages when the scan began. */
  readonly approximateCount: number;
  /** True when `max` stopped the scan while the queue probably holds more. */
  readonly truncated: boolean;
}

/** Marks a held message as deleted, so it is not put back. */
export type Settle = (message: HeldMessage) => void;

const DEFAULT_HOLD_SECONDS = 30;

/**
 * Scans the DLQ, calls `use` with the held messages, then makes every message `use` did not settle visible
 * again, also when `use` throws.
 */
export async function withDlqScan<T>(ctx: OpsContext, options: DlqScanOptions, use: (scan: DlqScan, settle: Settle) => Promise<T>): Promise<T> {
  const queueUrl = requireOutput(ctx, OutputName.DlqUrl);
  const where = { service: "SQS" as const, endpoint: ctx.endpoints?.sqs, resource: `the DLQ ${queueUrl}` };
  const hold = options.holdSeconds ?? DEFAULT_HOLD_SECONDS;
  const attributes = await awsCall("reading the DLQ's attributes", where, () =>
    ctx.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["ApproximateNumberOfMessages"] })),
  );
  const approximateCount = Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0);
  const byQuarantine = quarantineAuthor(hasOutput(ctx, OutputName.WorkflowRoleId) ? requireOutput(ctx, OutputName.WorkflowRoleId) : undefined);
  const byId = new Map<string, HeldMessage>();
  /** When each message was first received: a FIFO DLQ hands a group's messages back in their order (redrive-order.ts). */
  const firstSeen = new Map<string, number>();
  const settled = new Set<string>();
  try {
    let emptyPolls = 0;
    while (byId.size < options.max) {
      const { Messages = [] } = await awsCall("receiving from the DLQ", where, () =>
        ctx.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, options.max - byId.size),
            VisibilityTimeout: hold,
            WaitTimeSeconds: emptyPolls > 0 ? 1 : 0,
            MessageAttributeNames: ["All"],
            MessageSystemAttributeNames: ["All"],
          }),
        ),
      );
      if (Messages.length === 0) {
        if (byId.size >= approximateCount || emptyPolls > 0) break;
        emptyPolls += 1;
        continue;
      }
      emptyPolls = 0;
      for (const message of Messages) {
        if (!message.MessageId || !message.ReceiptHandle) continue;
        if (!firstSeen.has(message.MessageId)) firstSeen.set(message.MessageId, firstSeen.size);
        byId.delete(message.MessageId); // re-insert: a repeated receive moves it to the end with its new handle
        byId.set(message.MessageId, { entry: await toDlqEntry(message, ctx.now(), options.deriveKey, byQuarantine), receiptHandle: message.ReceiptHandle, message });
      }
    }
    // A FIFO DLQ's order is its groups' (SentTimestamp may be the producer's first send or the move's: not the order).
    const seen = (m: HeldMessage) => firstSeen.get(m.entry.messageId) ?? 0;
    const held = [...byId.values()].sort(isFifoQueue(queueUrl) ? (a, b) => seen(a) - seen(b) : (a, b) => (a.entry.sentAt ?? 0) - (b.entry.sentAt ?? 0));
    const scan: DlqScan = { queueUrl, held, approximateCount, truncated: byId.size >= options.max && approximateCount > byId.size };
    return await use(scan, (message) => settled.add(message.entry.messageId));
  } finally {
    await restore(ctx, queueUrl, [...byId.values()].filter((m) => !settled.has(m.entry.messageId)));
  }
}

/** Makes held messages visible again. Failures are ignored: the hold expires on its own after `holdSeconds`. */
async function restore(ctx: OpsContext, queueUrl: string, messages: readonly HeldMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    await ctx.sqs
      .send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: chunk.map((m, j) => ({ Id: String(j), ReceiptHandle: m.receiptHandle, VisibilityTimeout: 0 })),
        }),
      )
      .catch(() => undefined);
  }
}
