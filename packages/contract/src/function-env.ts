/**
 * Environment variables the construct sets on the downstream function. The handler wrapper reads them at cold
 * start, so the function enforces the same contract as the state machine: the payload fields of the hash, the
 * field rules (JSON of `effectiveRules` pairs), the Powertools table, how long its records live and how their ids
 * are formed (second-layer-ids.ts). Both contract
 * variables are JSON, written and read only here, so any field name the construct accepts arrives as it was sent.
 */
import { ContractConfigError } from "./errors";
import { effectiveRules, fieldNameProblem, type FieldRule, type FieldRules } from "./field-rules";
import { RESERVED_ERROR_NAMES } from "./error-names";
import { OutputName } from "./outputs";
import { SECOND_LAYER_IDS } from "./second-layer-ids";

export const ContractEnv = {
  IdempotencyTableName: "IDEMPOTENCY_TABLE_NAME",
  /** Lifetime of Powertools records, in seconds: the ledger's retention. */
  ExpiresAfterSeconds: "IDEMPOTENCY_EXPIRES_AFTER_SECONDS",
  /** JSON array text, e.g. `["amount","currency"]`. */
  PayloadFields: "PAYLOAD_FIELDS",
  FieldRules: "PIPELINE_FIELD_RULES",
  ServiceName: "POWERTOOLS_SERVICE_NAME",
  LogLevel: "POWERTOOLS_LOG_LEVEL",
  /** Powertools' `keyPrefix`: a constant of the contract, never the function's name (second-layer-ids.ts). */
  IdempotencyKeyPrefix: "IDEMPOTENCY_KEY_PREFIX",
  /** Powertools' `hashFunction` for record ids (and payload validation): `sha256`. */
  IdempotencyHashFunction: "IDEMPOTENCY_HASH_FUNCTION",
  /**
   * Optional: the function's name under the earlier releases, whose records (`<name>#<md5>`) the function still
   * honours during the upgrade's transition (docs/upgrading.md). Unset: only the current ids count.
   */
  IdempotencyLegacyKeyPrefix: "IDEMPOTENCY_LEGACY_KEY_PREFIX",
  /** Optional: how many records of a batch event the function works on at once (default DEFAULT_BATCH_CONCURRENCY). */
  BatchConcurrency: "PIPELINE_BATCH_CONCURRENCY",
  /**
   * Optional: JSON array of the error names a stack adds to the contract's permanent and conflict errors (the
   * construct's `function.permanentErrors` and `conflictErrors`). The workflow quarantines them, so the function logs
   * them as rejections, as the function-errors alarm expects (rejectionErrorsEnvironment). Unset: none.
   */
  RejectionErrors: "PIPELINE_REJECTION_ERRORS",
} as const;

/** The value of PIPELINE_FIELD_RULES. */
export function encodeFieldRules(rules: readonly (readonly [string, FieldRule])[]): string {
  return JSON.stringify(rules);
}

/**
 * The value of PAYLOAD_FIELDS: a JSON array, because a separator-joined list reads `amount,currency` back as two
 * fields, and two payloads differing in that one field would then hash alike.
 */
export function encodePayloadFields(fields: readonly string[]): string {
  return JSON.stringify(fields);
}

/**
 * The payload fields PAYLOAD_FIELDS carries, sorted and de-duplicated. Throws `ContractConfigError` naming the
 * variable when the text is not a non-empty JSON array of names the contract can carry (`fieldNameProblem`).
 */
export function decodePayloadFields(text: string): string[] {
  const name = ContractEnv.PayloadFields;
  const fix = 'set it to the JSON array the IdempotentPipeline construct writes (encodePayloadFields), e.g. ["amount","currency"]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ContractConfigError(name, text, "is not JSON (a comma-separated list cannot carry a field name holding a comma)", fix, { cause: error });
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((field) => typeof field === "string")) {
    throw new ContractConfigError(name, text, "is not a non-empty JSON array of field names", fix);
  }
  for (const field of parsed as string[]) {
    const problem = fieldNameProblem(field);
    if (problem) throw new ContractConfigError(name, field, problem.reason, problem.fix);
  }
  return [...new Set(parsed as string[])].sort();
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
    [ContractEnv.PayloadFields]: encodePayloadFields(domain.payloadFields),
    [ContractEnv.FieldRules]: encodeFieldRules(effectiveRules(domain.businessKey.requiredFields, domain.payloadFields, domain.fieldRules ?? {})),
  };
}

/**
 * The variables that say how the second layer's record ids are formed, as the construct sets them: the contract's
 * prefix and digest, and the legacy prefix while the upgrade's transition lasts (`undefined`: none).
 */
export function secondLayerEnvironment(legacyKeyPrefix?: string): Record<string, string> {
  return {
    [ContractEnv.IdempotencyKeyPrefix]: SECOND_LAYER_IDS.keyPrefix,
    [ContractEnv.IdempotencyHashFunction]: SECOND_LAYER_IDS.hashFunction,
    ...(legacyKeyPrefix === undefined ? {} : { [ContractEnv.IdempotencyLegacyKeyPrefix]: legacyKeyPrefix }),
  };
}

/**
 * PIPELINE_REJECTION_ERRORS as the construct sets it: the names of `permanentErrors` and `conflictErrors` beyond the
 * contract's own (which the function knows by their class), sorted; no variable when there are none, so a stack that
 * adds none deploys the same function configuration as before.
 */
export function rejectionErrorsEnvironment(permanentErrors: readonly string[], conflictErrors: readonly string[]): Record<string, string> {
  const added = [...new Set([...permanentErrors, ...conflictErrors])].filter((name) => !RESERVED_ERROR_NAMES.includes(name)).sort();
  return added.length === 0 ? {} : { [ContractEnv.RejectionErrors]: JSON.stringify(added) };
}

/** The names PIPELINE_REJECTION_ERRORS carries. Throws `ContractConfigError` naming it unless a JSON array of names. */
export function decodeRejectionErrors(text: string): string[] {
  const fix = 'set it to the JSON array the IdempotentPipeline construct writes (rejectionErrorsEnvironment), e.g. ["InsufficientFunds"]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ContractConfigError(ContractEnv.RejectionErrors, text, "is not JSON", fix, { cause: error });
  }
  if (!Array.isArray(parsed) || !parsed.every((name) => typeof name === "string" && name !== "")) {
    throw new ContractConfigError(ContractEnv.RejectionErrors, text, "is not a JSON array of error names", fix);
  }
  return parsed as string[];
}

/** The stack outputs that repeat the function's second-layer id variables, so `ops` reads the very same values. */
export function secondLayerOutputs(
  environment: Readonly<Record<string, string>>,
): Record<typeof OutputName.IdempotencyKeyPrefix | typeof OutputName.IdempotencyHashFunction | typeof OutputName.IdempotencyLegacyKeyPrefix, string> {
  return {
    [OutputName.IdempotencyKeyPrefix]: environment[ContractEnv.IdempotencyKeyPrefix],
    [OutputName.IdempotencyHashFunction]: environment[ContractEnv.IdempotencyHashFunction],
    // "": no transition (an output cannot be absent from a stack that declares it).
    [OutputName.IdempotencyLegacyKeyPrefix]: environment[ContractEnv.IdempotencyLegacyKeyPrefix] ?? "",
  };
}
