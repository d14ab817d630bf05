/**
 * Limits of the pipeline's contract, shared by the state machine renderer, the construct, the function and the
 * tools. Each is smaller than the AWS limit it protects, so a message that breaks one is quarantined as
 * `invalid-message` on its first delivery instead of failing at DynamoDB or SQS on every retry.
 */

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

/** Characters of payload a pipe hands a Step Functions target in one batch (AWS: Pipes batching). */
const PIPE_TARGET_PAYLOAD_CHARS = 262_144;

/** Characters of one SQS record in the pipe's batch besides its body: ids, receipt handle, attributes. */
const RECORD_ENVELOPE_CHARS = 4_096;

/** SQS's maximum message size for the DLQ (body and attributes). */
export const DLQ_MAX_MESSAGE_BYTES = 262_144;

/** Bytes the quarantine's attributes can take: names, types, reason, ids, timestamp, key and detail (4 bytes a character). */
export const QUARANTINE_ATTRIBUTE_BYTES = 128 + MAX_BUSINESS_KEY_BYTES + 4 * MAX_DETAIL_CHARS;

/**
 * The largest source message whose record always fits one pipe batch: JSON escaping can double a body's length
 * (every `"` and `\` gains a backslash), and bytes never count fewer than characters.
 */
export const MAX_MESSAGE_BYTES = Math.floor((PIPE_TARGET_PAYLOAD_CHARS - RECORD_ENVELOPE_CHARS) / 2);

/**
 * UTF-8 bytes of the JSON of a side effect's result that the function returns, and Powertools stores, as it is; a
 * larger result is replaced by a small stand-in (functions/result-bound.ts) after the effect was applied (unlike
 * the limits above, nothing is quarantined: the message ends processed). It protects two limits that would otherwise fail every delivery of an applied message:
 * - Step Functions' 256 KiB per task result: the Invoke state's result is this JSON plus ~1 KB of Lambda response
 *   metadata, and the execution also holds the message body (up to MAX_MESSAGE_BYTES) in its variables;
 * - DynamoDB's 400 KB item: Powertools keeps the result as a map (at most ~1.5 times its JSON, counting
 *   DynamoDB's per-element overhead) besides a few hundred bytes of id, status, expirations and hash.
 * 64 KiB leaves a margin of more than 60 KiB against both, whatever JSON escaping or a future envelope adds.
 */
export const MAX_RESULT_BYTES = 65_536;
