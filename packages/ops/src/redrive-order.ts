import type { SendMessageCommandInput } from "@aws-sdk/client-sqs";
import { isFifoQueue, redriveDeduplicationId } from "@effectively-once/contract";
import type { DlqEntry } from "./types";

/**
 * How `dlq redrive` keeps a FIFO message group's order when it moves several messages. A FIFO DLQ holds each group's
 * messages in the order they came there (quarantines send each with its group; SQS moves keep it), and a receive hands
 * them back in that order; each copy sent to the source queue joins the end of its group. So the copies of one group
 * go one at a time, in the DLQ's order, and a group's moves stop at its first message that stays in the DLQ (not
 * selected, refused, or failed to send): a later one moved without it would be applied before it.
 */
export interface GroupOrder {
  /** Why this message must stay (an earlier message of its group stays), or undefined. */
  blockedBy(entry: DlqEntry): string | undefined;
  /** Marks a message as staying in the DLQ: the rest of its group stays behind it. */
  stays(entry: DlqEntry): void;
}

export function groupOrder(queueUrl: string): GroupOrder {
  const stopped = new Map<string, DlqEntry>();
  const fifo = isFifoQueue(queueUrl);
  return {
    blockedBy: (entry) => {
      const first = fifo && entry.groupId !== undefined ? stopped.get(entry.groupId) : undefined;
      return first === undefined
        ? undefined
        : `it is behind ${first.originalMessageId} in its message group ${JSON.stringify(entry.groupId)}, which stays in the DLQ: moved alone it would be applied first (redrive that one first, or with it)`;
    },
    stays: (entry) => {
      if (fifo && entry.groupId !== undefined && !stopped.has(entry.groupId)) stopped.set(entry.groupId, entry);
    },
  };
}

/**
 * What a FIFO source queue needs of a copy: its group, and a deduplication id unique to the DLQ message it copies
 * (contract/fifo.ts: a resend of the same copy within SQS's 5 minutes is not delivered twice, no other is dropped).
 */
export function fifoCopyFields(queueUrl: string, entry: DlqEntry): Pick<SendMessageCommandInput, "MessageGroupId" | "MessageDeduplicationId"> {
  if (!isFifoQueue(queueUrl)) return {};
  return { MessageGroupId: entry.groupId, MessageDeduplicationId: redriveDeduplicationId(entry.messageId) };
}
