/**
 * The function's environment, read in one place: the variables the construct (and the Lambda runtime) set, each checked
 * at cold start with an error naming the variable and the fix. The rest of the wrapper takes what this file returns.
 */
import type { FieldRule } from "@effectively-once/contract";
import { assertFieldRules, ContractConfigError, ContractEnv, DEFAULT_BATCH_CONCURRENCY, decodePayloadFields, decodeRejectionErrors } from "@effectively-once/contract";
import { legacySecondLayerIds, SECOND_LAYER_HASH_FUNCTIONS, type SecondLayerIds } from "@effectively-once/contract";
import { ConfigurationError } from "./errors";

/** The shape of `process.env`, accepted as a parameter so config parsing stays testable. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** A non-empty (after trimming) string variable. */
export function requireString(env: Environment, name: string): string {
  const value = env[name]?.trim();
  if (!value) {
    throw new ConfigurationError(name, `${name} is not set: set it to a non-empty value`);
  }
  return value;
}

/** A variable holding a positive integer, e.g. a number of seconds. */
function requirePositiveInteger(env: Environment, name: string): number {
  const raw = requireString(env, name);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0) {
    throw new ConfigurationError(name, `${name} is "${raw}": set it to a positive whole number`);
  }
  return value;
}

/** An optional variable restricted to a set of values; `undefined` when unset or blank. */
function optionalOneOf<T extends string>(
  env: Environment,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const match = allowed.find((value) => value === raw.toUpperCase());
  if (match === undefined) {
    throw new ConfigurationError(name, `${name} is "${raw}": set it to one of ${allowed.join(", ")}`);
  }
  return match;
}


/** Log levels of the Powertools logger (`POWERTOOLS_LOG_LEVEL`). */
export const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "CRITICAL", "SILENT"] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The variable the Lambda runtime sets, which the wrapper reads too. */
const RuntimeEnv = { Region: "AWS_REGION" } as const;

/** What the handler wrapper reads from the environment the construct (and the Lambda runtime) sets. */
export interface PipelineConfig {
  /** Powertools idempotency table (hash key `id`, TTL `expiration`). */
  readonly idempotencyTableName: string;
  /** Lifetime of Powertools records (and of an effect journal's items), in seconds: the ledger's retention. */
  readonly expiresAfterSeconds: number;
  /** Top-level payload fields the payload hash covers, sorted and de-duplicated. */
  readonly payloadFields: readonly string[];
  /** The pipeline's field rules, in checking order (PIPELINE_FIELD_RULES). */
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
  /** The logger's `service`. */
  readonly serviceName: string;
  /** Level of the function's Powertools logger (`POWERTOOLS_LOG_LEVEL`, default `INFO`). */
  readonly logLevel: LogLevelName;
  /**
   * How the second layer's record ids are formed (Powertools' `keyPrefix` and `hashFunction`): the contract's
   * constants, never the function's name, so a rename forgets nothing (packages/contract/src/second-layer-ids.ts).
   */
  readonly secondLayerIds: SecondLayerIds;
  /** The ids of the earlier releases the function still honours during the upgrade's transition; absent: none. */
  readonly legacySecondLayerIds?: SecondLayerIds;
  /** Records of a batch event worked on at once (`PIPELINE_BATCH_CONCURRENCY`, default `DEFAULT_BATCH_CONCURRENCY`). */
  readonly batchConcurrency: number;
  /** The function's region (`AWS_REGION`), for its DynamoDB client. */
  readonly region: string;
  /**
   * The error names the stack adds to the contract's permanent and conflict errors (`PIPELINE_REJECTION_ERRORS`,
   * default none): the workflow quarantines them, so the invocation log writes them as rejections.
   */
  readonly rejectionErrors: readonly string[];
}

/**
 * Reads and checks the environment once, at cold start. Throws `ConfigurationError` naming the variable and the
 * fix. `POWERTOOLS_LOG_LEVEL` (default `INFO`), `PIPELINE_BATCH_CONCURRENCY` (default 10) and
 * `PIPELINE_REJECTION_ERRORS` (default none) are optional; every other variable is required.
 */
export function readPipelineConfig(env: Environment): PipelineConfig {
  return {
    idempotencyTableName: requireString(env, ContractEnv.IdempotencyTableName),
    expiresAfterSeconds: requirePositiveInteger(env, ContractEnv.ExpiresAfterSeconds),
    payloadFields: readPayloadFields(env),
    fieldRules: readFieldRules(env),
    serviceName: requireString(env, ContractEnv.ServiceName),
    logLevel: optionalOneOf(env, ContractEnv.LogLevel, LOG_LEVELS) ?? "INFO",
    secondLayerIds: { keyPrefix: requireString(env, ContractEnv.IdempotencyKeyPrefix), hashFunction: readHashFunction(env) },
    ...legacyIds(env),
    batchConcurrency: env[ContractEnv.BatchConcurrency]?.trim() ? requirePositiveInteger(env, ContractEnv.BatchConcurrency) : DEFAULT_BATCH_CONCURRENCY,
    region: requireString(env, RuntimeEnv.Region),
    rejectionErrors: readRejectionErrors(env),
  };
}

/** Reads PIPELINE_REJECTION_ERRORS (JSON `["InsufficientFunds", ...]`), none when unset; throws `ConfigurationError` naming it. */
function readRejectionErrors(env: Environment): string[] {
  const name = ContractEnv.RejectionErrors;
  const raw = env[name]?.trim();
  if (!raw) return [];
  try {
    return decodeRejectionErrors(raw);
  } catch (error) {
    if (!(error instanceof ContractConfigError)) throw error;
    throw new ConfigurationError(name, error.message, { cause: error });
  }
}

/** A digest that no producer can make two keys share (MD5 and SHA-1 are refused). */
function readHashFunction(env: Environment): string {
  const name = ContractEnv.IdempotencyHashFunction;
  const raw = requireString(env, name);
  const value = raw.toLowerCase();
  if (!SECOND_LAYER_HASH_FUNCTIONS.includes(value)) {
    throw new ConfigurationError(name, `${name} is "${raw}": set it to one of ${SECOND_LAYER_HASH_FUNCTIONS.join(", ")} (a digest two keys cannot share)`);
  }
  return value;
}

function legacyIds(env: Environment): Pick<PipelineConfig, "legacySecondLayerIds"> {
  const prefix = env[ContractEnv.IdempotencyLegacyKeyPrefix]?.trim();
  return prefix ? { legacySecondLayerIds: legacySecondLayerIds(prefix) } : {};
}

/** Reads PAYLOAD_FIELDS (JSON `["amount", ...]`), sorted and de-duplicated; throws `ConfigurationError` naming it. */
function readPayloadFields(env: Environment): string[] {
  const name = ContractEnv.PayloadFields;
  try {
    return decodePayloadFields(requireString(env, name));
  } catch (error) {
    if (!(error instanceof ContractConfigError)) throw error;
    throw new ConfigurationError(name, error.message, { cause: error });
  }
}

/** Reads PIPELINE_FIELD_RULES (JSON `[[field, rule], ...]`); throws `ConfigurationError` naming it. */
function readFieldRules(env: Environment): [string, FieldRule][] {
  const name = ContractEnv.FieldRules;
  const raw = requireString(env, name);
  const fix = `set it to the JSON the IdempotentPipeline construct writes, e.g. [["amount",{"type":"integer"}]]`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ConfigurationError(name, `${name} is not JSON: ${fix}`, { cause: error });
  }
  if (!Array.isArray(parsed) || !parsed.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && typeof e[1] === "object" && e[1] !== null)) {
    throw new ConfigurationError(name, `${name} is not a list of [field, rule] pairs: ${fix}`);
  }
  const pairs = parsed as [string, FieldRule][];
  try {
    assertFieldRules(Object.fromEntries(pairs), name);
  } catch (error) {
    throw new ConfigurationError(name, (error as Error).message, { cause: error });
  }
  return pairs;
}
