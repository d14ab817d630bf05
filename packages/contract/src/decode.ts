/**
 * The Decode step in TypeScript: what the state machine's JSONata (`decode-jsonata.ts`) yields for a body. The one
 * TypeScript key derivation: `decodeBody` for a whole body (the harness labels what it sends with it) and
 * `deriveBusinessKey` for the key alone (pipeline-ops keys DLQ messages with it), both held to the JSONata by the
 * parity test (test/contract/decode-parity.test.ts).
 */
import jsonata from "jsonata";
import { businessKeyText, nestsTooDeep, payloadHash, utf8Bytes } from "./canonical";
import { DecodeProblem, type DecodeSpec } from "./decode-jsonata";
import { CanonicalValueError } from "./errors";
import { firstFieldProblem, type FieldRule } from "./field-rules";
import { MAX_BUSINESS_KEY_BYTES } from "./limits";
import { duplicateMemberName } from "./member-names";

type Decoded = { readonly key: string; readonly payloadHash: string } | { readonly problem: string };

const expressions = new Map<string, ReturnType<typeof jsonata>>();
/** One compiled expression per text: tools key thousands of bodies with the same expression. */
function compiled(expression: string): ReturnType<typeof jsonata> {
  let e = expressions.get(expression);
  if (!e) expressions.set(expression, (e = jsonata(expression)));
  return e;
}

/** The key expression's parts for a body, as the Decode step takes them, or the Decode step's problem. */
async function keyParts(record: Record<string, unknown>, keyExpression: string): Promise<{ readonly parts: readonly unknown[] } | { readonly problem: string }> {
  const value: unknown = await compiled(keyExpression).evaluate(record);
  const parts = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (value === undefined || parts.length === 0) return { problem: DecodeProblem.noKey };
  if (parts.some((p) => typeof p !== "string" && typeof p !== "number")) return { problem: DecodeProblem.badPart };
  return { parts };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Decodes a raw message body; throws only where the state machine's step fails too (not JSON, non-finite numbers). */
export async function decodeBody(body: string, spec: DecodeSpec): Promise<Decoded> {
  const parsed: unknown = JSON.parse(body);
  if (!isRecord(parsed)) return { problem: DecodeProblem.notAnObject };
  if (nestsTooDeep(parsed)) return { problem: DecodeProblem.tooDeep };
  if (duplicateMemberName(body) !== undefined) return { problem: DecodeProblem.duplicateMember };
  const fieldProblem = firstFieldProblem(parsed, spec.rules as [string, FieldRule][]);
  if (fieldProblem) return { problem: fieldProblem };
  const found = await keyParts(parsed, spec.keyExpression);
  if ("problem" in found) return found;
  const record = parsed;
  try {
    const key = businessKeyText(found.parts);
    const hash = payloadHash(record, spec.payloadFields);
    const bytes = utf8Bytes(key);
    if (bytes > MAX_BUSINESS_KEY_BYTES) return { problem: DecodeProblem.keyTooLong(bytes) };
    return { key, payloadHash: hash };
  } catch (error) {
    if (error instanceof CanonicalValueError) return { problem: error.message };
    throw error;
  }
}

/**
 * The business key of a parsed body by the key expression alone (no field rules: the Decode step checks those first),
 * as the Decode step derives it; undefined where that step would yield no key (not an object, no or bad parts, a
 * value canonical JSON refuses, a key over the ledger's bytes).
 */
export async function deriveBusinessKey(expression: string, body: unknown): Promise<string | undefined> {
  if (!isRecord(body)) return undefined;
  const found = await keyParts(body, expression);
  if ("problem" in found) return undefined;
  try {
    const key = businessKeyText(found.parts);
    return utf8Bytes(key) > MAX_BUSINESS_KEY_BYTES ? undefined : key;
  } catch (error) {
    if (error instanceof CanonicalValueError) return undefined;
    throw error;
  }
}
