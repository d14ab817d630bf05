/** The simulated SQS's data (sqs/service.ts): queue settings, stored messages, what happened to them, and its errors. */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";

export interface SimQueueConfig {
  readonly url: string;
  readonly arn: string;
  readonly visibilityTimeoutSeconds: number;
  readonly retentionSeconds: number;
  readonly maxMessageBytes: number;
  readonly redrive?: { readonly deadLetterUrl: string; readonly maxReceiveCount: number };
  /** Which queues may name this one as their DLQ (the `RedriveAllowPolicy` attribute); undefined = absent = allowAll. */
  readonly redriveAllowPolicy?: string;
  /** The queue's policy (the `Policy` attribute), as the stack's props render it; undefined = none. */
  readonly policy?: string;
  /** A FIFO queue (sqs/fifo.ts): its content-based deduplication and deduplication scope. */
  readonly fifo?: { readonly contentBasedDeduplication: boolean; readonly deduplicationScope: "queue" | "messageGroup" };
}

export interface StoredMessage {
  readonly id: string;
  readonly body: string;
  readonly attributes?: Record<string, MessageAttributeValue>;
  /** The principal that sent it (SQS's SenderId); a move by the redrive policy keeps it. */
  readonly senderId: string;
  /** Original enqueue time (kept when the redrive policy moves it). */
  readonly sentAt: number;
  receiveCount: number;
  /** Virtual time of the first receive (SQS's ApproximateFirstReceiveTimestamp). */
  firstReceivedAt?: number;
  invisibleUntil: number;
  receiptHandle?: string;
  /** When its latest receive hid it, and how long its earlier receives kept it hidden (its wait is the rest of its life). */
  receivedAt?: number;
  hiddenMs?: number;
  /** When the redrive policy moved it to this queue (a DLQ copy). */
  deadLetteredAt?: number;
  /** The queue whose redrive policy moved it here (AWS adds the DeadLetterQueueSourceArn system attribute: recorded, see tools/sim/test/sqs/conformance). */
  deadLetterQueueSourceArn?: string;
  /** FIFO: its group, its deduplication id, and its place among the queue's messages (arrival order in this queue). */
  readonly groupId?: string;
  readonly deduplicationId?: string;
  arrival?: number;
  /** When its retention began, if not at its first send: a FIFO DLQ restarts it at the move (AWS). */
  retainedFrom?: number;
}

/** What happened to messages, in order: the simulation derives every message's fate from it. */
export type SqsEvent =
  | { type: "sent"; queue: string; id: string }
  /** A FIFO send SQS accepted and will never deliver: `id` repeats the deduplication id of `of`, sent within 5 minutes. */
  | { type: "deduplicated"; queue: string; id: string; of: string }
  | { type: "deleted"; queue: string; id: string }
  | { type: "dead-lettered"; queue: string; id: string }
  /** A message-move task moved DLQ message `from` to `queue` as the new message `id`. */
  | { type: "moved"; queue: string; id: string; from: string }
  | { type: "purged"; queue: string; id: string }
  /**
   * `at`: when its retention ran out; `waitedMs`: how long it waited visible and unreceived in that queue (its life
   * there minus the time its receives hid it); `deadLetteredAt`: when the redrive policy moved it there.
   */
  | { type: "expired"; queue: string; id: string; at: number; waitedMs: number; deadLetteredAt?: number };

export class SqsError extends Error {
  readonly $metadata = { httpStatusCode: 400, requestId: "sim" };
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}
