/**
 * One function invocation per batch (docs/guarantees.md, "One invocation per batch"): the event that carries the
 * claimed records of a batch to the function, and the answer it gives, one outcome per record. The function still
 * accepts the single-record {@link InvocationEvent}, so a workflow that sends one record at a time keeps working
 * against a function that knows batches (the first window of the rollout, docs/upgrading.md).
 */
import { MAX_DETAIL_CHARS } from "./limits";
import type { InvocationEvent } from "./event";

/**
 * One record of a batch event: the single-record event's fields, with the message's `body` as the text SQS carried
 * instead of the parsed `payload` (the function parses it). Text, so that the batch's input is provably no larger than
 * the execution's own input allows: a parsed body re-serialized by Step Functions can grow (`1e20` is written as 21
 * digits), and a task input over 256 KiB fails the execution where no Catch can handle it. A record with `payload`
 * (the single event's form) is accepted too.
 */
export type BatchRecordEvent<Payload = Record<string, unknown>> = Omit<InvocationEvent<Payload>, "payload"> & ({ readonly body: string } | { readonly payload: Payload });

/** The batch event: the claimed records of one execution, in batch order. */
export interface BatchInvocationEvent<Payload = Record<string, unknown>> {
  readonly records: readonly BatchRecordEvent<Payload>[];
}

/**
 * The fields of a batch event's record as the workflow sends them (`test/contract/definition-agrees.test.ts` holds
 * the definition to them).
 */
export const BATCH_RECORD_FIELDS = ["businessKey", "operation", "messageId", "receiveCount", "firstSentAt", "body"] as const;

/** What became of one record of a batch, as the function saw it. */
export const BatchRecordOutcome = {
  /** The side effect ran for this record. */
  Applied: "applied",
  /** The second layer (Powertools) answered from a completed record: the side effect did not run again. */
  Duplicate: "duplicate",
  /** A permanent error: the workflow releases the claim and quarantines the record `rejected`. */
  Rejected: "rejected",
  /** The key was applied with another payload: released and quarantined `payload-mismatch`. */
  Conflict: "conflict",
  /** Any other error: released, and the record is retried. */
  Retry: "retry",
} as const;
export type BatchRecordOutcome = (typeof BatchRecordOutcome)[keyof typeof BatchRecordOutcome];

/**
 * One record's answer. Never the side effect's result: that stays in the second layer (Powertools' record), so the
 * answer of a batch stays small whatever the side effect returns (Step Functions' 256 KiB state data, whose overrun,
 * States.DataLimitExceeded, no Catch on States.ALL catches).
 */
export interface BatchRecordAnswer {
  /** The record's SQS messageId, as the event carried it. */
  readonly messageId: string;
  readonly outcome: BatchRecordOutcome;
  /** For a failed record: the error's name as a single-record invocation would report it (its `errorType`). */
  readonly error?: string;
  /** For a failed record: its message, at most {@link MAX_DETAIL_CHARS} characters. */
  readonly detail?: string;
}

/** The answer to a batch event: one entry per record, in the order of the event's records. */
export interface BatchAnswer {
  readonly outcomes: readonly BatchRecordAnswer[];
}

/** Records of one batch the function works on at once unless its environment says otherwise (`PIPELINE_BATCH_CONCURRENCY`). */
export const DEFAULT_BATCH_CONCURRENCY = 10;

/** The longest error name an answer carries (Lambda reports `errorType` as the name; longer ones are cut). */
export const MAX_ANSWER_ERROR_CHARS = 128;

/**
 * A batch event rather than a single-record one: an object with a `records` array and no `businessKey`. The single
 * event never has `records` (INVOCATION_EVENT_FIELDS), so the two cannot be mistaken for each other.
 */
export function isBatchInvocationEvent(event: unknown): event is { readonly records: readonly unknown[] } {
  if (typeof event !== "object" || event === null || Array.isArray(event)) return false;
  return Array.isArray((event as { records?: unknown }).records) && !("businessKey" in event);
}

/** `text` cut to `max` characters, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/** A failed record's answer, its name and message cut to the answer's bounds. */
export function failedAnswer(messageId: string, outcome: BatchRecordOutcome, error: string, detail: string): BatchRecordAnswer {
  return { messageId, outcome, error: cut(error, MAX_ANSWER_ERROR_CHARS), detail: cut(detail, MAX_DETAIL_CHARS) };
}

/** The longest function ARN: `arn:<partition ≤ 16>:lambda:<region ≤ 20>:<12 digits>:function:<name ≤ 64>:<qualifier ≤ 128>`. */
const FUNCTION_ARN_CHARS = 256;

/** `{"FunctionName":"","Payload":{"records":[]}}`: the Task's input around the records. */
const BATCH_INPUT_WRAPPER_BYTES = JSON.stringify({ FunctionName: "", Payload: { records: [] } }).length + 2 * FUNCTION_ARN_CHARS;

/**
 * One record of the batch event besides its body, at its largest: the skeleton, the business key (UTF-8 bytes of
 * canonical JSON, escaped again: at most 3 bytes a byte, as RECORD_BYTES_PER_MESSAGE_BYTE says), an operation of 64
 * ASCII characters, a messageId of 100 (2 bytes each when escaped), and two numbers of 20 digits.
 */
export function batchRecordEnvelopeBytes(maxBusinessKeyBytes: number, bytesPerByte: number): number {
  const skeleton = JSON.stringify({ businessKey: "", operation: "", messageId: "", receiveCount: 0, firstSentAt: 0, body: "" }).length - 2;
  return skeleton + bytesPerByte * maxBusinessKeyBytes + 64 + 2 * 100 + 2 * 20;
}

/**
 * The worst-case UTF-8 bytes of the batch invocation's input (the Task's input after Arguments, which Step Functions
 * caps at 256 KiB and whose overrun no Catch handles): `batchSize` records, each body at most `queueMaxBytes`
 * escaped at most `bytesPerByte` a byte.
 */
export function worstBatchInvocationInputBytes(batchSize: number, queueMaxBytes: number, envelopeBytes: number, bytesPerByte: number): number {
  return BATCH_INPUT_WRAPPER_BYTES + batchSize * (bytesPerByte * queueMaxBytes + envelopeBytes) + Math.max(0, batchSize - 1);
}

/**
 * Lambda's response around the function's answer as the `lambda:invoke` integration returns it (`ExecutedVersion`,
 * `StatusCode`, `SdkHttpMetadata` with its headers, `SdkResponseMetadata`): a generous bound.
 */
const INVOKE_RESULT_ENVELOPE_BYTES = 4096;

/**
 * One answer at its largest: a messageId of 100 characters, the longest outcome word, an error name and a detail at
 * their bounds, each character at most 6 bytes as JSON (a `\u` escape).
 */
const ANSWER_BYTES =
  JSON.stringify({ messageId: "", outcome: "", error: "", detail: "" }).length +
  2 * 100 +
  Math.max(...Object.values(BatchRecordOutcome).map((o) => o.length)) +
  6 * (MAX_ANSWER_ERROR_CHARS + MAX_DETAIL_CHARS) +
  1;

/** The worst-case UTF-8 bytes of the batch invocation's result: the answer of `batchSize` records and Lambda's envelope. */
export function worstBatchAnswerBytes(batchSize: number): number {
  return INVOKE_RESULT_ENVELOPE_BYTES + JSON.stringify({ outcomes: [] }).length + batchSize * ANSWER_BYTES;
}
