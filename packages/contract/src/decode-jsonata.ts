/**
 * The state machine's Decode expression: parse the body, enforce the field rules, and derive the business key
 * and payload hash in the canonical form, or name the first problem. It yields `{key, payloadHash, problem}` (the
 * unused ones null) and never the parsed body, so a large message is not copied into the state's data twice.
 */
import { CANONICAL_FUNCTIONS, DEPTH_FUNCTION, jsonataString } from "./canonical-jsonata";
import { type FieldRule } from "./field-rules";
import { fieldProblemExpression, QUOTE_FUNCTION } from "./field-rules-jsonata";
import { MAX_BODY_DEPTH, MAX_BUSINESS_KEY_BYTES } from "./limits";
import { DUPLICATE_MEMBERS_FUNCTION } from "./member-names";

export interface DecodeSpec {
  /** JSONata over the parsed body yielding the key parts (an array; a single value is a one-part key). */
  readonly keyExpression: string;
  /** Fields checked, in order, with their rules (see `effectiveRules`). */
  readonly rules: readonly (readonly [string, FieldRule])[];
  /** Fields covered by the payload hash. */
  readonly payloadFields: readonly string[];
}

/** Problems the decode step reports besides field rules; also used by the function and the tools. */
export const DecodeProblem = {
  notAnObject: "the body is not a JSON object",
  tooDeep: `body: nested deeper than ${MAX_BODY_DEPTH} levels`,
  duplicateMember: "body: an object holds a member name twice (I-JSON, RFC 7493 §2.3); send each name once per object",
  noKey: "businessKey: the business key expression produced no value",
  badPart: "businessKey: every key part must be a string or a number",
  keyTooLong: (bytes: number | string) => `businessKey: ${bytes} bytes of canonical text, more than the ${MAX_BUSINESS_KEY_BYTES} the ledger allows; shorten the key fields`,
} as const;

/** `{field: value}` in sorted field order (members present in the body only), then its canonical text. */
function payloadTextExpression(fields: readonly string[]): string {
  const members = [...new Set(fields)].sort().map((f) => `{ ${jsonataString(f)}: $lookup($body, ${jsonataString(f)}) }`);
  return `( $payload := $merge([{}, ${members.join(", ")}]); $count($each($payload, function($x) { $flat($x) })[$ = false]) = 0 ? $string($payload) : $canonPayload($payload) )`;
}

/** How the key parts become the ledger's key text, and the payload text its hash. */
const KEY_TEXT = "$canonFast($parts, 'businessKey')";
const PAYLOAD_HASH = "$hash($payloadText, 'SHA-256')";

/**
 * Every piece of the Decode step that decides the canonical form of the key and of the payload hash (for a
 * placeholder payload field): its digest is the `canonicalForm` of the key derivation (`key-derivation.ts`).
 */
export const CANONICAL_FORM_TEXT = [CANONICAL_FUNCTIONS, KEY_TEXT, payloadTextExpression(["field"]), PAYLOAD_HASH].join("\n");

/** The JSONata text of the Decode step (without the `{% %}` delimiters); `$states.input.body` is the raw body. */
export function decodeExpression(spec: DecodeSpec): string {
  const problems = spec.rules.map(([field, rule]) => fieldProblemExpression(field, rule));
  return [
    "(",
    CANONICAL_FUNCTIONS,
    DEPTH_FUNCTION,
    QUOTE_FUNCTION,
    DUPLICATE_MEMBERS_FUNCTION,
    "$body := $parse($states.input.body);",
    // Every field present (null when unset): an Assign of nothing is an error in Step Functions.
    "$merge([{ 'key': null, 'payloadHash': null, 'problem': null },",
    `$type($body) != 'object' ? { 'problem': ${jsonataString(DecodeProblem.notAnObject)} }`,
    // Fewer opening brackets ([ and {) than the limit cannot nest deeper: the walk is only for bodies that might.
    // Counted by splitting on each (native string splits); a regex $replace would step once per character.
    `: ($count($split($states.input.body, '[')) + $count($split($states.input.body, '{')) - 2 > ${MAX_BODY_DEPTH} and $tooDeep($body, 0)) ? { 'problem': ${jsonataString(DecodeProblem.tooDeep)} }`,
    `: $duplicateMembers($states.input.body, $body) ? { 'problem': ${jsonataString(DecodeProblem.duplicateMember)} }`,
    ": (",
    `  $fieldProblem := [${problems.join(", ")}][0];`,
    "  $fieldProblem ? { 'problem': $fieldProblem } : (",
    `    $k := $body.(${spec.keyExpression});`,
    "    $parts := $type($k) = 'array' ? $k : [$k];",
    `    ($not($exists($k)) or $count($parts) = 0) ? { 'problem': ${jsonataString(DecodeProblem.noKey)} }`,
    `    : $exists($parts[$type($) != 'string' and $type($) != 'number']) ? { 'problem': ${jsonataString(DecodeProblem.badPart)} }`,
    "    : (",
    // A code point is at most 4 bytes of UTF-8: a key that short cannot be too long, so its bytes are not counted.
    `      $keyText := ${KEY_TEXT};`,
    `      $payloadText := ${payloadTextExpression(spec.payloadFields)};`,
    "      $type($keyText) = 'object' ? $keyText",
    "      : $type($payloadText) = 'object' ? $payloadText",
    `      : ($length($keyText) * 4 > ${MAX_BUSINESS_KEY_BYTES} and $utf8($keyText) > ${MAX_BUSINESS_KEY_BYTES}) ? { 'problem': 'businessKey: ' & $utf8($keyText) & ' bytes of canonical text, more than the ${MAX_BUSINESS_KEY_BYTES} the ledger allows; shorten the key fields' }`,
    `      : { 'key': $keyText, 'payloadHash': ${PAYLOAD_HASH} }`,
    "    )",
    "  )",
    ")",
    "])",
    ")",
  ].join(" ");
}
