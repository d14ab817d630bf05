import type { Message } from "@aws-sdk/client-sqs";
import type { KeyDeriver } from "./business-key";
import { KeySource, type DlqEntry } from "./types";
import { businessKeyFromOperator } from "@effectively-once/contract";
import { DlqAttribute, DlqReason } from "@effectively-once/contract";

/**
 * Whether a DLQ message was written by the stack's own quarantine: its SenderId (set by SQS, never by a producer)
 * is the workflow role's, `<role unique id>:<session>`. Only then are its `reason`, `originalMessageId`,
 * `businessKey` and `detail` the pipeline's metadata; on any other message (one the queue's redrive moved) those
 * names are the producer's data. A stack without the `workflow_role_id` output cannot vouch for any message.
 */
export type QuarantineAuthor = (message: Message) => boolean;

export function quarantineAuthor(roleId: string | undefined): QuarantineAuthor {
  if (!roleId) return () => false;
  return (message) => {
    const sender = message.Attributes?.SenderId;
    return sender === roleId || (sender?.startsWith(`${roleId}:`) ?? false);
  };
}

/**
 * One received DLQ message as the commands report it. The state machine's quarantine sets `reason`,
 * `originalMessageId`, `businessKey` (when known) and `detail`; a message the queue's redrive moved after
 * maxReceiveCount has none of them (or the producer's own of those names, which mean nothing here): it is
 * `retries-exhausted`, keeps its own messageId, and its key is derived from the body.
 */
export async function toDlqEntry(message: Message, nowMs: number, deriveKey: KeyDeriver, byQuarantine: QuarantineAuthor): Promise<DlqEntry> {
  const quarantined = byQuarantine(message);
  const attrs = quarantined ? (message.MessageAttributes ?? {}) : {};
  const text = (name: string) => {
    const value = attrs[name]?.StringValue;
    return value === undefined || value === "" ? undefined : value;
  };
  const reason = text(DlqAttribute.Reason) ?? DlqReason.RetriesExhausted;
  const body = message.Body ?? "";
  // The attribute escapes what SQS cannot carry (U+FFFE, U+FFFF): read back as the ledger's canonical text.
  const rawAttributeKey = text(DlqAttribute.BusinessKey);
  const attributeKey = rawAttributeKey === undefined ? undefined : canonicalKeyOrSelf(rawAttributeKey);
  // Only a message that passed validation has a meaningful key; invalid-message bodies are not evaluated.
  const derivedKey = attributeKey === undefined && reason === DlqReason.RetriesExhausted ? await deriveKey(body) : undefined;
  const businessKey = attributeKey ?? derivedKey;
  const detail = text(DlqAttribute.Detail);
  const sent = Number(message.Attributes?.SentTimestamp);
  // Any producer can set a `firstSentTimestamp` attribute: SQS's own SentTimestamp bounds it, so a forged value can
  // only make the message look older (refused sooner), never younger.
  const stamped = Number.isFinite(sent) && sent > 0 ? sent : undefined;
  const claimed = firstSentTimestampOf(message);
  const firstSent = claimed !== undefined && stamped !== undefined ? Math.min(claimed, stamped) : (claimed ?? stamped);
  const receives = Number(message.Attributes?.ApproximateReceiveCount);
  return {
    messageId: message.MessageId ?? "",
    reason,
    ...(businessKey !== undefined ? { businessKey, keySource: attributeKey !== undefined ? KeySource.Attribute : KeySource.Body } : {}),
    originalMessageId: text(DlqAttribute.OriginalMessageId) ?? message.MessageId ?? "",
    ...(detail !== undefined ? { detail } : {}),
    ...(Number.isFinite(sent) && sent > 0 ? { sentAt: sent, ageMs: Math.max(0, nowMs - sent) } : {}),
    ...(firstSent !== undefined ? { firstSentAt: firstSent } : {}),
    ...(Number.isFinite(receives) && receives > 0 ? { receiveCount: receives } : {}),
    body,
    ...(quarantined ? {} : { movedByQueue: true }),
    ...(message.Attributes?.MessageGroupId === undefined ? {} : { groupId: message.Attributes.MessageGroupId }),
  };
}

function canonicalKeyOrSelf(text: string): string {
  try {
    return businessKeyFromOperator({ key: text });
  } catch {
    return text;
  }
}

/** The `firstSentTimestamp` attribute (DataType Number, epoch ms), when present and a plausible epoch. */
function firstSentTimestampOf(message: Message): number | undefined {
  const value = Number(message.MessageAttributes?.[DlqAttribute.FirstSentTimestamp]?.StringValue);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
