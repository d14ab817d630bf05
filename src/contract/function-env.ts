/**
 * Environment variables the construct sets on the downstream function so that it enforces the same contract as
 * the state machine: the payload fields of the hash and the field rules (JSON of `effectiveRules` pairs).
 */
import type { FieldRule } from "./field-rules";

export const CONTRACT_ENV = {
  PAYLOAD_FIELDS: "PAYLOAD_FIELDS",
  FIELD_RULES: "PIPELINE_FIELD_RULES",
} as const;

/** The value of PIPELINE_FIELD_RULES. */
export function encodeFieldRules(rules: readonly (readonly [string, FieldRule])[]): string {
  return JSON.stringify(rules);
}
