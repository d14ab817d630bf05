/**
 * The Decode step in TypeScript: what the state machine's JSONata (`decode-jsonata.ts`) yields for a body, for
 * the tools and for the property test that holds the two to one rule.
 */
import jsonata from "jsonata";
import { businessKeyText, nestsTooDeep, payloadHash, utf8Bytes } from "./canonical";
import { DecodeProblem, type DecodeSpec } from "./decode-jsonata";
import { CanonicalValueError } from "./errors";
import { firstFieldProblem, type FieldRule } from "./field-rules";
import { MAX_BUSINESS_KEY_BYTES } from "./limits";

type Decoded = { readonly key: string; readonly payloadHash: string } | { readonly problem: string };

/** Decodes a raw message body; throws only where the state machine's step fails too (not JSON, non-finite numbers). */
export async function decodeBody(body: string, spec: DecodeSpec): Promise<Decoded> {
  const parsed: unknown = JSON.parse(body);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { problem: DecodeProblem.notAnObject };
  if (nestsTooDeep(parsed)) return { problem: DecodeProblem.tooDeep };
  const record = parsed as Record<string, unknown>;
  const fieldProblem = firstFieldProblem(record, spec.rules as [string, FieldRule][]);
  if (fieldProblem) return { problem: fieldProblem };
  const value: unknown = await jsonata(spec.keyExpression).evaluate(record);
  const parts = Array.isArray(value) ? value : value === undefined ? [] : [value];
  if (value === undefined || parts.length === 0) return { problem: DecodeProblem.noKey };
  if (parts.some((p) => typeof p !== "string" && typeof p !== "number")) return { problem: DecodeProblem.badPart };
  try {
    const key = businessKeyText(parts);
    const hash = payloadHash(record, spec.payloadFields);
    const bytes = utf8Bytes(key);
    if (bytes > MAX_BUSINESS_KEY_BYTES) return { problem: DecodeProblem.keyTooLong(bytes) };
    return { key, payloadHash: hash };
  } catch (error) {
    if (error instanceof CanonicalValueError) return { problem: error.message };
    throw error;
  }
}
