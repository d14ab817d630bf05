/**
 * Limits of the pipeline's contract, shared by the state machine renderer, the construct, the function and the
 * tools. Each is smaller than the AWS limit it protects, so a message that breaks one is quarantined as
 * `invalid-message` on its first delivery instead of failing at DynamoDB or SQS on every retry.
 */
import { DlqAttribute } from "./outcomes";

/** Largest integer JSON carries exactly in a double (Number.MAX_SAFE_INTEGER). */
export const MAX_EXACT_INTEGER = 9007199254740991;

/**
 * UTF-8 bytes of the business key's canonical text. DynamoDB allows 2,048 in a partition key; the downstream
 * idempotency key appends `#<operation>` and the DLQ carries the key as a message attribute, so half of that.
 */
export const MAX_BUSINESS_KEY_BYTES = 1024;

/** Nesting depth of a message body (objects and arrays). Deeper bodies cannot be serialized safely downstream. */
export const MAX_BODY_DEPTH = 64;

/** Characters of the DLQ `detail` attribute: enough for one readable sentence, never a stack trace. */
export const MAX_DETAIL_CHARS = 500;

/** Characters of a value quoted in a validation message. */
export const MAX_QUOTED_VALUE_CHARS = 60;

/** SQS's maximum message size for the DLQ (body and attributes). */
export const DLQ_MAX_MESSAGE_BYTES = 262_144;

/** Bytes the quarantine's attributes can take: names, types, reason, ids, timestamp, key and detail (4 bytes a character). */
export const QUARANTINE_ATTRIBUTE_BYTES = 128 + MAX_BUSINESS_KEY_BYTES + 4 * MAX_DETAIL_CHARS;

/** SQS's largest message (body and attributes) the construct may configure a queue for; the synth's own bound is far lower. */
export const SQS_MAX_MESSAGE_BYTES = 262_144;

/** Message attributes SQS allows on one message. */
export const SQS_MAX_ATTRIBUTES = 10;

/**
 * Message attributes a producer may set: one of SQS's ten is kept for the `firstSentTimestamp` that
 * `pipeline-ops dlq redrive` adds to every copy it sends back.
 */
export const MAX_PRODUCER_ATTRIBUTES = SQS_MAX_ATTRIBUTES - 1;

/**
 * Bytes the redrive's `firstSentTimestamp` attribute adds to a copy, as SQS counts a message's size (attribute
 * name, data type and value): `firstSentTimestamp` (18) + `Number` (6) + 13 digits of epoch milliseconds. The source
 * queue's `max_message_size` is `maxMessageBytes` + this room, so every message within the documented limit (body
 * and at most 9 attributes ≤ maxMessageBytes) can be redriven; a test pins the name to the ops' own.
 */
export const REDRIVE_ATTRIBUTE_BYTES = DlqAttribute.FirstSentTimestamp.length + "Number".length + 13;

/** The source queue's `max_message_size`: what producers may send, plus the redrive's room. */
export function sourceQueueMaxBytes(maxMessageBytes: number): number {
  return maxMessageBytes + REDRIVE_ATTRIBUTE_BYTES;
}

/**
 * UTF-8 bytes of input StartSyncExecution accepts: its `input` member is at most 262,144, "expressed as bytes in
 * UTF-8 encoding" (botocore's states model, SensitiveData). The pipe cuts a batch at 262,144 *characters*, which
 * multi-byte text can carry past this: a batch of valid messages would then be refused whole, on every receive.
 */
export const SYNC_EXECUTION_INPUT_BYTES = 262_144;

/**
 * How many bytes one UTF-8 byte of a message's body or attribute text can take in the JSON record the pipe builds.
 * Pipes does not document its serializer; the worst case stated here (and measured by the verify probes on AWS):
 * - printable ASCII other than `"` and `\` stays itself (1 → 1), as does DEL;
 * - `"`, `\`, tab, LF and CR become two-character escapes (1 → 2); SQS refuses every other control character;
 * - any other character stays itself or becomes `\u` escapes: a 2-byte character → 6 (3 a byte), a 3-byte one → 6,
 *   a 4-byte one → 12 as a surrogate pair (3 a byte);
 * - a binary attribute's base64 takes 4 characters per 3 bytes (rounding up: `RECORD_ATTRIBUTE_BYTES` holds the rest).
 * So at most 3 bytes a byte. A serializer that escaped more (an HTML-safe one writing `<` as `\u003c`) would break
 * this bound.
 */
export const RECORD_BYTES_PER_MESSAGE_BYTE = 3;

/** The largest value of each system text of a record, in characters (ASCII), from AWS's docs and API models. */
const RECORD_SYSTEM_VALUES: readonly (readonly [string, number])[] = [
  // "The maximum length of a message ID is 100 characters"; "of a receipt handle is 1,024 characters" (SQS identifiers).
  ["messageId", 100],
  ["receiptHandle", 1024],
  ["md5OfBody", 32],
  ["md5OfMessageAttributes", 32],
  ["eventSource", "aws:sqs".length],
  // arn:<partition>:sqs:<region>:<12 digits>:<queue name, ≤ 80>
  ["eventSourceARN", 256],
  ["awsRegion", 32],
  // Epoch milliseconds and counts.
  ["ApproximateReceiveCount", 20],
  ["SentTimestamp", 20],
  ["ApproximateFirstReceiveTimestamp", 20],
  // A user id, or a role id and its session name (≤ 64).
  ["SenderId", 128],
  // Not counted in the message's size (SQS); Step Functions' TraceHeader is at most 256 ASCII characters.
  ["AWSTraceHeader", 256],
  ["DeadLetterQueueSourceArn", 256],
  // Up to 128 characters each, punctuation allowed.
  ["MessageGroupId", 128],
  ["MessageDeduplicationId", 128],
  ["SequenceNumber", 128],
];

/** A record with every system member and no values: its keys, quotes, colons, commas and braces (compact JSON). */
const RECORD_SKELETON_BYTES = (() => {
  const attributes = RECORD_SYSTEM_VALUES.filter(([name]) => /^[A-Z]/.test(name)).map(([name]) => [name, ""]);
  const top = RECORD_SYSTEM_VALUES.filter(([name]) => !/^[A-Z]/.test(name)).map(([name]) => [name, ""]);
  return JSON.stringify({ ...Object.fromEntries(top), body: "", attributes: Object.fromEntries(attributes), messageAttributes: {} }).length;
})();

/**
 * Bytes of one message attribute's record structure besides its name, type and value (those count in the message's
 * size): `"":{"stringValue":"","binaryValue":"","stringListValues":[],"binaryListValues":[],"dataType":""},`, plus 4
 * for base64's rounding of a binary value.
 */
const RECORD_ATTRIBUTE_BYTES = `"":${JSON.stringify({ stringValue: "", binaryValue: "", stringListValues: [], binaryListValues: [], dataType: "" })},`.length + 4;

/**
 * Bytes of one record besides what the message's size counts: the skeleton, every system value at its largest and
 * escaped (2 bytes a character: `"` and `\` may occur in several), and the structure of SQS's 10 attributes.
 */
export const RECORD_ENVELOPE_BYTES =
  RECORD_SKELETON_BYTES + 2 * RECORD_SYSTEM_VALUES.reduce((sum, [, chars]) => sum + chars, 0) + SQS_MAX_ATTRIBUTES * RECORD_ATTRIBUTE_BYTES;

/**
 * The worst-case bytes of a batch's input (a JSON array of records), for a source queue whose messages are at most
 * `queueMaxBytes` (body and attributes, as SQS counts them).
 */
export function worstBatchInputBytes(batchSize: number, queueMaxBytes: number): number {
  return batchSize * (RECORD_BYTES_PER_MESSAGE_BYTE * queueMaxBytes + RECORD_ENVELOPE_BYTES) + Math.max(0, batchSize - 1) + 2;
}

/** The largest `maxMessageBytes` whose worst batch of `batchSize` fits StartSyncExecution's input (may be ≤ 0). */
export function largestMaxMessageBytes(batchSize: number): number {
  const perRecord = Math.floor((SYNC_EXECUTION_INPUT_BYTES - 2 - Math.max(0, batchSize - 1)) / batchSize);
  return Math.floor((perRecord - RECORD_ENVELOPE_BYTES) / RECORD_BYTES_PER_MESSAGE_BYTE) - REDRIVE_ATTRIBUTE_BYTES;
}

/** The largest batch size whose worst batch of `maxMessageBytes` messages fits (0 when not even one does). */
export function largestBatchSize(maxMessageBytes: number, most = 10): number {
  let n = 0;
  while (n < most && worstBatchInputBytes(n + 1, sourceQueueMaxBytes(maxMessageBytes)) <= SYNC_EXECUTION_INPUT_BYTES) n += 1;
  return n;
}

/**
 * UTF-8 bytes of the JSON of a side effect's result that the function returns, and Powertools stores, as it is; a
 * larger result is replaced by a small stand-in (handler/result-bound.ts) after the effect was applied (unlike
 * the limits above, nothing is quarantined: the message ends processed). It protects two limits that would otherwise fail every delivery of an applied message:
 * - Step Functions' 256 KiB per task result: the Invoke state's result is this JSON plus ~1 KB of Lambda response
 *   metadata, and the execution also holds the message body (up to `maxMessageBytes`) in its variables;
 * - DynamoDB's 400 KB item: Powertools keeps the result as a map (at most ~1.5 times its JSON, counting
 *   DynamoDB's per-element overhead) besides a few hundred bytes of id, status, expirations and hash.
 * 64 KiB leaves a margin of more than 60 KiB against both, whatever JSON escaping or a future envelope adds.
 */
export const MAX_RESULT_BYTES = 65_536;
