/**
 * What becomes of a record, in the state machine's words, and what a DLQ message's reason means. The definition
 * ends each record's path with `{messageId, outcome, reason?, detail?, followers?}`; this module reads it, so the
 * local cloud reports raw execution output and the meaning lives here (`test/contract/definition-agrees.test.ts`
 * proves the definition uses exactly these words).
 */

/** What an execution reports for one record of its batch. */
export const RecordOutcome = {
  /** Applied by this execution. */
  Processed: "processed",
  /** Acknowledged as a duplicate of an applied message (or of its batch's leader). */
  Duplicate: "duplicate",
  /** Moved to the DLQ with a reason. */
  Quarantined: "quarantined",
  /** Failed for now: the record goes back to the queue and comes again. */
  Retry: "retry",
} as const;
export type RecordOutcome = (typeof RecordOutcome)[keyof typeof RecordOutcome];

/** The `reason` attribute the state machine's quarantine writes. */
export const QuarantineReason = {
  /** The body is not JSON, yields no business key, or breaks a field rule. */
  InvalidMessage: "invalid-message",
  /** The key was applied with another payload. */
  PayloadMismatch: "payload-mismatch",
  /** The function refused it for good (a permanent error). */
  Rejected: "rejected",
  /**
   * A quarantined copy that SQS moved back to the source queue (not `pipeline-ops dlq redrive`), first sent longer ago
   * than the source queue's retention: its key's memory may have ended, so it is set aside again, never applied.
   */
  MovedBackTooLate: "moved-back-too-late",
} as const;
export type QuarantineReason = (typeof QuarantineReason)[keyof typeof QuarantineReason];

/** Why a message is in the DLQ: a quarantine reason, or `retries-exhausted` when the queue's redrive moved it (no attributes). */
export const DlqReason = {
  ...QuarantineReason,
  /**
   * Failed on every receive: moved by the queue's redrive after `maxReceiveCount` receives, with no attributes of the
   * workflow; in FIFO mode quarantined by the workflow on its last receive, with this reason and the failure as detail.
   */
  RetriesExhausted: "retries-exhausted",
} as const;

/**
 * FIFO mode: the detail of a record handed back unprocessed because an earlier record of its message group in the
 * batch is retried (statemachines/src/fifo.ts): the words the definition writes and the readers of its outputs match.
 */
export const FIFO_HELD_DETAIL = "held: an earlier message of its group is retried, so it waits to keep the order of its group";
export type DlqReason = (typeof DlqReason)[keyof typeof DlqReason];

/**
 * The in-batch follower rule: copies with the very same body as a record of the batch (its leader) share its fate.
 * A processed or duplicate leader's followers are duplicates; a quarantined leader's are quarantined after the Map,
 * each reporting its own outcome (so none here); otherwise they are retried with it.
 */
function followerOutcome(leader: RecordOutcome): RecordOutcome | undefined {
  if (leader === RecordOutcome.Quarantined) return undefined;
  return leader === RecordOutcome.Processed || leader === RecordOutcome.Duplicate ? RecordOutcome.Duplicate : RecordOutcome.Retry;
}

export interface RecordFate {
  readonly messageId: string;
  readonly outcome: RecordOutcome;
  readonly reason?: string;
  readonly detail?: string;
}

const OUTCOMES = new Set<string>(Object.values(RecordOutcome));

/**
 * The fates one state output reports (a record's, then its followers'; in FIFO mode a group's list, of which only the
 * records held behind a retried one report here: the others reported from their own states); none for any other output.
 */
export function fatesOfStateOutput(output: unknown): RecordFate[] {
  if (Array.isArray(output)) {
    return output.flatMap((o) => (o && typeof o === "object" && (o as RecordFate).detail === FIFO_HELD_DETAIL && typeof (o as RecordFate).messageId === "string" ? [{ messageId: (o as RecordFate).messageId, outcome: RecordOutcome.Retry, detail: FIFO_HELD_DETAIL }] : []));
  }
  if (!output || typeof output !== "object") return [];
  const o = output as Record<string, unknown>;
  if (typeof o.messageId !== "string" || !OUTCOMES.has(o.outcome as string)) return [];
  const outcome = o.outcome as RecordOutcome;
  const fates: RecordFate[] = [
    { messageId: o.messageId, outcome, reason: typeof o.reason === "string" ? o.reason : undefined, detail: typeof o.detail === "string" ? o.detail : undefined },
  ];
  const shared = followerOutcome(outcome);
  if (shared === undefined) return fates;
  for (const follower of Array.isArray(o.followers) ? o.followers : []) {
    if (typeof follower === "string") fates.push({ messageId: follower, outcome: shared, detail: `same body as ${o.messageId} in this batch` });
  }
  return fates;
}

/**
 * The message attributes of a DLQ message the stack's quarantine wrote (the state machine's Quarantine task), read by
 * `pipeline-ops` and the harness. A message the queue's redrive moved after maxReceiveCount carries none of them.
 */
export const DlqAttribute = {
  /** Why it is in the DLQ: a {@link DlqReason}. */
  Reason: "reason",
  /** The messageId of the message the pipeline received. */
  OriginalMessageId: "originalMessageId",
  /** The first send of the message (epoch ms, DataType Number), carried across quarantines and redrives. */
  FirstSentTimestamp: "firstSentTimestamp",
  /** A sentence on what went wrong, cleaned of characters SQS refuses and cut short. */
  Detail: "detail",
  /** The ledger key, when the body yielded one. */
  BusinessKey: "businessKey",
  /** The producer's own message attributes, as JSON text, when they fit beside the body. */
  ProducerAttributes: "producerAttributes",
  /** Said instead of {@link DlqAttribute.ProducerAttributes} when they did not fit (and why). */
  ProducerAttributesDropped: "producerAttributesDropped",
} as const;
export type DlqAttribute = (typeof DlqAttribute)[keyof typeof DlqAttribute];
