/**
 * The canonical JSON text of a value: one rule for the ledger's business key and payload hash (computed by the
 * state machine in JSONata, `canonical-jsonata.ts`) and for the function's Powertools validation hash (computed
 * here). RFC 8785 (JSON Canonicalization Scheme) is the reference; docs/canonical-form.md states the rule and
 * where it departs from RFC 8785:
 *
 * - objects: members sorted by their names' UTF-16 code units, at every depth; arrays keep their order;
 * - strings: JSON.stringify's escaping (RFC 8785 §3.2.2.2); lone surrogates stay escaped (`\ud800`), so the text is
 *   always valid Unicode (DynamoDB and SQS would otherwise replace them and merge two keys);
 * - numbers: ECMAScript's shortest form (RFC 8785 §3.2.2.3), so 10, 10.0 and 1e1 are one value; a number JSON
 *   cannot carry exactly is refused instead of rounded: integers beyond 2^53 - 1, non-finite values, and
 *   fractions needing more than 15 significant digits (the most JSONata's `$string` keeps).
 */
import { createHash } from "node:crypto";
import { CanonicalValueError } from "./errors";
import { MAX_BODY_DEPTH, MAX_EXACT_INTEGER } from "./limits";

/** The messages both evaluators give, so the two layers name a bad value alike. */
export const CanonicalProblem = {
  outOfRange: (path: string) => `${path}: a number out of range (e.g. 1e400); send it as a string`,
  inexactInteger: (path: string) => `${path}: an integer beyond 2^53 - 1, which JSON numbers cannot carry exactly; send it as a string`,
  inexactFraction: (path: string) => `${path}: a number with more than 15 significant digits, which cannot be compared exactly; send it as a string`,
  tooDeep: (path: string) => `${path}: nested deeper than ${MAX_BODY_DEPTH} levels`,
} as const;

function canonicalString(value: string): string {
  return JSON.stringify(value);
}

function canonicalNumber(value: number, path: string): string {
  if (!Number.isFinite(value)) throw new CanonicalValueError(path, CanonicalProblem.outOfRange(path));
  if (Number.isInteger(value)) {
    if (Math.abs(value) > MAX_EXACT_INTEGER) throw new CanonicalValueError(path, CanonicalProblem.inexactInteger(path));
    return String(value === 0 ? 0 : value); // -0 is 0
  }
  const text = String(Number(value.toPrecision(15)));
  if (Number(text) !== value) throw new CanonicalValueError(path, CanonicalProblem.inexactFraction(path));
  return text;
}

function canonical(value: unknown, path: string, depth: number): string {
  if (depth > MAX_BODY_DEPTH) throw new CanonicalValueError(path, CanonicalProblem.tooDeep(path));
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return canonicalString(value);
    case "number":
      return canonicalNumber(value, path);
    case "object": {
      if (Array.isArray(value)) return `[${value.map((item, i) => canonical(item, `${path}[${i}]`, depth + 1)).join(",")}]`;
      const record = value as Record<string, unknown>;
      const members = Object.keys(record)
        .sort()
        .map((name) => `${canonicalString(name)}:${canonical(record[name], `${path}.${name}`, depth + 1)}`);
      return `{${members.join(",")}}`;
    }
    default:
      throw new CanonicalValueError(path, `${path}: ${typeof value} is not a JSON value`);
  }
}

/** Canonical JSON text of a parsed JSON value; throws `CanonicalValueError` naming the offending path. */
export function canonicalJson(value: unknown, path = "value"): string {
  return canonical(value, path, 0);
}

/** `{field: value}` over the payload fields present in the body, in the canonical form. */
function payloadText(body: Readonly<Record<string, unknown>>, fields: readonly string[]): string {
  const selected: Record<string, unknown> = {};
  for (const field of fields) {
    if (Object.prototype.hasOwnProperty.call(body, field) && body[field] !== undefined) selected[field] = body[field];
  }
  const members = Object.keys(selected)
    .sort()
    .map((name) => `${canonicalString(name)}:${canonical(selected[name], name, 1)}`);
  return `{${members.join(",")}}`;
}

/** SHA-256 (hex) of the payload's canonical text: the ledger's `payloadHash` and the function's validation hash. */
export function payloadHash(body: Readonly<Record<string, unknown>>, fields: readonly string[]): string {
  return createHash("sha256").update(payloadText(body, fields), "utf8").digest("hex");
}

/** The ledger key of a tuple of key parts: the canonical text of the array, e.g. `["t1","o-42"]`. */
export function businessKeyText(parts: readonly unknown[]): string {
  return canonical(parts, "businessKey", 0);
}

/** UTF-8 length of a canonical text (which never holds a lone surrogate). */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** True when a parsed value nests deeper than MAX_BODY_DEPTH (the body itself is depth 0); stops descending there. */
export function nestsTooDeep(value: unknown, depth = 0): boolean {
  if (depth > MAX_BODY_DEPTH) return true;
  if (value === null || typeof value !== "object") return false;
  return (Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)).some((child) => nestsTooDeep(child, depth + 1));
}
