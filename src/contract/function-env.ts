/**
 * Environment variables the construct sets on the downstream function. The handler wrapper reads them at cold
 * start, so the function enforces the same contract as the state machine: the payload fields of the hash, the
 * field rules (JSON of `effectiveRules` pairs), the Powertools table and how long its records live.
 */
import { effectiveRules, type FieldRule, type FieldRules } from "./field-rules";

export const CONTRACT_ENV = {
  IDEMPOTENCY_TABLE_NAME: "IDEMPOTENCY_TABLE_NAME",
  /** Lifetime of Powertools records, in seconds: the ledger's retention. */
  EXPIRES_AFTER_SECONDS: "IDEMPOTENCY_EXPIRES_AFTER_SECONDS",
  PAYLOAD_FIELDS: "PAYLOAD_FIELDS",
  FIELD_RULES: "PIPELINE_FIELD_RULES",
  SERVICE_NAME: "POWERTOOLS_SERVICE_NAME",
  LOG_LEVEL: "POWERTOOLS_LOG_LEVEL",
} as const;

/** The value of PIPELINE_FIELD_RULES. */
export function encodeFieldRules(rules: readonly (readonly [string, FieldRule])[]): string {
  return JSON.stringify(rules);
}

/**
 * The two variables that carry a domain's contract to the function (`PAYLOAD_FIELDS`, `PIPELINE_FIELD_RULES`), as
 * the construct sets them: for the construct itself, and for tests that run a handler outside a stack.
 */
export function contractEnvironment(domain: {
  readonly businessKey: { readonly requiredFields: readonly string[] };
  readonly payloadFields: readonly string[];
  readonly fieldRules?: FieldRules;
}): Record<string, string> {
  return {
    [CONTRACT_ENV.PAYLOAD_FIELDS]: domain.payloadFields.join(","),
    [CONTRACT_ENV.FIELD_RULES]: encodeFieldRules(effectiveRules(domain.businessKey.requiredFields, domain.payloadFields, domain.fieldRules ?? {})),
  };
}
