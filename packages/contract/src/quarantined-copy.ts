/**
 * A quarantined copy that comes back to the source queue by SQS's own moves (a message-move task from a temporary
 * queue that the DLQ's own redrive policy filled; docs/guarantees.md, "paths back from the DLQ") still carries the
 * quarantine's message attributes: SQS keeps a message's attributes through a redrive and a move task (SQS Developer
 * Guide, "Learn how to configure a dead-letter queue redrive"), while `pipeline-ops dlq redrive` strips them. This
 * module is the one place that says which attributes mark such a copy, for the pipe's filter (it must let the copy
 * through whatever the stack's `filterPatterns` say) and for the workflow (it recognises the copy and reads its first
 * send: statemachines/src/expressions.ts).
 *
 * A producer can set attributes of these names too: then its message passes the filter, as the copy of a message the
 * filter once let through does, and its `firstSentTimestamp` never counts later than SQS's own `SentTimestamp`, so a
 * forged one can only make it look older (re-quarantined, never applied late).
 */
import { DlqAttribute } from "./outcomes";

/** The attributes every quarantine writes and `dlq redrive` never sends back: together they mark a quarantined copy. */
export const QUARANTINE_MARKERS = [DlqAttribute.Reason, DlqAttribute.OriginalMessageId, DlqAttribute.FirstSentTimestamp] as const;

/** The EventBridge pattern matching a record that carries every marker (the pipe's SQS record shape). */
export const QUARANTINED_COPY_PATTERN: Readonly<Record<string, unknown>> = {
  messageAttributes: Object.fromEntries(QUARANTINE_MARKERS.map((name) => [name, { stringValue: [{ exists: true }] }])),
};

/**
 * The pipe's filter patterns for a stack's `filterPatterns`: none stays none (everything passes); otherwise the
 * stack's patterns and {@link QUARANTINED_COPY_PATTERN}, so a quarantined copy moved back (which carries its
 * producer's attributes only packed in `producerAttributes`) is never dropped unprocessed. Every such copy passed the
 * filter once: the workflow quarantined it.
 */
export function pipeFilterPatterns(filterPatterns: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return filterPatterns.length === 0 ? [] : [...filterPatterns, QUARANTINED_COPY_PATTERN];
}
