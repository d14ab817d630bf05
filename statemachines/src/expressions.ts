/**
 * JSONata expressions of the pipeline state machine that are too long to read inside the JSON file. Each is a
 * complete `{% %}` field value, filled in by the renderer.
 */
import { DLQ_MAX_MESSAGE_BYTES, DlqAttribute, MAX_DETAIL_CHARS, QUARANTINE_ATTRIBUTE_BYTES, QUARANTINE_MARKERS } from "@effectively-once/contract";

/**
 * Epoch ms of the message's first send, from the SQS record `record` (a JSONata expression): its own
 * `firstSentTimestamp` attribute when a quarantine or redrive set one, else its SentTimestamp. Kept across quarantine
 * and redrive so the tools know the message's true age. Any producer can set an attribute of that name, so it is
 * bounded by the record's own SentTimestamp (which SQS stamps): a forged value can make a message look older
 * (the tools then refuse more), never younger.
 */
function firstSentTimestamp(record: string): string {
  return (
    `{% ( $r := ${record}; $f := $r.messageAttributes.${DlqAttribute.FirstSentTimestamp}.stringValue; $s := $exists($r.attributes.SentTimestamp) ? $string($r.attributes.SentTimestamp) : $string($millis());` +
    " ($exists($f) and $contains($string($f), /^[0-9]{1,15}$/) and $number($string($f)) < $number($s)) ? $string($f) : $s ) %}"
  );
}

/** Of the record being processed (a Map iteration's input). */
export const FIRST_SENT_TIMESTAMP = firstSentTimestamp("$states.input");

/** Of a follower quarantined after the Map: its record is found in the execution's input by message id. */
export const FOLLOWER_FIRST_SENT_TIMESTAMP = firstSentTimestamp("$states.context.Execution.Input[messageId = $states.input.messageId][0]");

/**
 * Whether the record being processed carries every attribute that marks a quarantined copy (the contract's
 * QUARANTINE_MARKERS): a copy SQS moved back from the DLQ, which `pipeline-ops dlq redrive` never sends.
 */
export const RETURNED_COPY =
  `{% ( $a := $states.input.messageAttributes; ${QUARANTINE_MARKERS.map((name) => `$exists($a.\`${name}\`.stringValue)`).join(" and ")} ) %}`;

/** Why a copy moved back too late is quarantined again (its age and the limit, in seconds). */
export function movedBackTooLateDetail(messageRetentionSeconds: number): string {
  return (
    "{% 'a quarantined copy moved back by SQS, not by pipeline-ops dlq redrive: first sent ' & $string($floor(($millis() - $number($firstSentTimestamp)) / 1000)) & " +
    `' s ago, more than the source queue retention (${messageRetentionSeconds} s), so its key may be forgotten and it is not applied; pipeline-ops dlq redrive decides with what both layers remember' %}`
  );
}

/**
 * For each position of the batch, the position of the first record with the very same body (its leader; a record
 * that leads its own group points at itself). Compared by position, never through an object keyed by the body: a
 * body is outside text, and JSONata's group-by builds a plain object, where `__proto__` sets the prototype and
 * `hasOwnProperty` shadows the method the next lookup calls. A batch holds at most 10 records, so the quadratic
 * scan is 100 comparisons at most. A body found once in the batch (the common case) leads itself without the scan.
 */
export const LEADER_POSITIONS =
  "{% ( $bodies := [$states.input.body]; $count($bodies) = 1 ? [0] : [$map($bodies, function($b, $i) {" +
  " ($i = 0 or $count($bodies[$ = $b]) = 1) ? $i : $filter([0..$i], function($j) { $bodies[$j] = $b })[0] })] ) %}";

/** The message ids of a leader's followers (the records that point at its position), in batch order; none when only it points there. */
export const FOLLOWER_IDS =
  "{% ( $p := $states.input.batchPosition; $in := $states.context.Execution.Input;" +
  " $count($leaderAt[$ = $p]) = 1 ? [] : [$map($filter([0..$count($leaderAt) - 1], function($k) { $k != $p and $leaderAt[$k] = $p }), function($k) { $in[$k].messageId })] ) %}";

/** Why Decode failed, from the error's cause (the part after the expression text, or its end). */
export const PARSE_ERROR_DETAIL =
  "{% ( $c := $string($states.errorOutput.Cause); $m := $contains($c, 'during evaluation. ') ? $substringAfter($c, 'during evaluation. ') : $substring($c, -300);" +
  " $contains($c, 'D1001') ? 'body: a number out of range (e.g. 1e400); send it as a string' : 'body could not be parsed: ' & $m ) %}";

/**
 * The function's error name and message. The cause of a Lambda function error is the runtime's JSON
 * `{errorType, errorMessage, trace}`: only `errorMessage` is kept, never the stack trace. (`\x5C` is a backslash:
 * JSONata's scanner miscounts brackets after a literal `\\`.)
 */
export const FUNCTION_ERROR_DETAIL = String.raw`{% ( $c := $string($states.errorOutput.Cause); $m := $match($c, /"errorMessage"\s*:\s*"((?:[^"\x5C]|\x5C.)*)"/);` +
  String.raw` $states.errorOutput.Error & ': ' & ($exists($m) ? $m[0].groups[0] : $substring($c, 0, 200)) ) %}`;

/**
 * Characters SQS refuses in a message attribute (outside #x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD #x10000-#x10FFFF,
 * i.e. other control characters, U+FFFE/U+FFFF and lone surrogates), as a JSONata regex without the `u` flag.
 */
const SQS_REFUSED_CHARACTERS = String.raw`/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/`;

const PRODUCER_ATTRIBUTES = DlqAttribute.ProducerAttributes;
const PRODUCER_ATTRIBUTES_DROPPED = DlqAttribute.ProducerAttributesDropped;

/**
 * The DLQ message's attributes. `detail` is cleaned and cut to a sentence. `businessKey` is the ledger's canonical
 * text, in which JSON already escapes control characters and lone surrogates; U+FFFE and U+FFFF, which SQS also
 * refuses, are written as their JSON escapes, so the attribute still parses to the very same key.
 *
 * The producer's own attributes (from the execution's input, found by message id) travel packed as one JSON text,
 * `producerAttributes`, exactly as the pipe delivered them: the DLQ copy then keeps SQS's 10-attribute limit whatever
 * the producer set, no object is ever keyed by a producer's attribute name, and \`dlq redrive\` restores them, so a
 * stack's filter patterns still match the redriven copy. When they would not fit the DLQ's size limit beside the
 * body, \`producerAttributesDropped\` says so instead.
 */
export const QUARANTINE_ATTRIBUTES =
  `{% ( $clean := function($s) { $substring($replace($string($s), ${SQS_REFUSED_CHARACTERS}, '?'), 0, ${MAX_DETAIL_CHARS}) };` +
  " $bytes := function($s) { ( $e := $encodeUrlComponent($s); $length($e) - 2 * ($length($e) - $length($replace($e, '%', ''))) ) };" +
  " $own := $states.context.Execution.Input[messageId = $messageId][0].messageAttributes;" +
  " $packed := ($exists($own) and $count($keys($own)) > 0) ? $string($own) : null;" +
  ` $fits := $packed = null or $bytes($body) + $bytes($packed) + ${PRODUCER_ATTRIBUTES.length + 6} + ${QUARANTINE_ATTRIBUTE_BYTES} <= ${DLQ_MAX_MESSAGE_BYTES};` +
  " $merge([{" +
  ` '${DlqAttribute.Reason}': { 'DataType': 'String', 'StringValue': $reason },` +
  ` '${DlqAttribute.OriginalMessageId}': { 'DataType': 'String', 'StringValue': $messageId },` +
  ` '${DlqAttribute.FirstSentTimestamp}': { 'DataType': 'Number', 'StringValue': $firstSentTimestamp },` +
  ` '${DlqAttribute.Detail}': { 'DataType': 'String', 'StringValue': ($exists($detail) and $detail != '') ? $clean($detail) : $reason }` +
  ` }, $key ? { '${DlqAttribute.BusinessKey}': { 'DataType': 'String', 'StringValue': ` +
  String.raw`$replace($replace($key, /\uFFFE/, '\\ufffe'), /\uFFFF/, '\\uffff')` +
  " } } : {}," +
  ` ($packed != null and $fits) ? { '${PRODUCER_ATTRIBUTES}': { 'DataType': 'String', 'StringValue': $packed } } : {},` +
  ` ($packed != null and $not($fits)) ? { '${PRODUCER_ATTRIBUTES_DROPPED}': { 'DataType': 'String', 'StringValue': $count($keys($own)) & ' attributes (' & $bytes($packed) & ' bytes as JSON) did not fit the DLQ message beside the body' } } : {}` +
  "]) ) %}";
