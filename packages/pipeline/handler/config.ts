import type { FieldRule } from "../src/contract/field-rules";
import { ContractEnv } from "../src/contract/function-env";
import { readFieldRules, readPayloadFields } from "./contract";
import { type Environment, optionalOneOf, requirePositiveInteger, requireString } from "./env";

/** Log levels of the Powertools logger (`POWERTOOLS_LOG_LEVEL`). */
export const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "CRITICAL", "SILENT"] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** Variables the Lambda runtime sets, which the wrapper reads too. */
const RuntimeEnv = { FunctionName: "AWS_LAMBDA_FUNCTION_NAME", Region: "AWS_REGION" } as const;

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
  /** Powertools prefixes every record id with it, so functions sharing a table never collide. */
  readonly functionName: string;
  /** The function's region (`AWS_REGION`), for its DynamoDB client. */
  readonly region: string;
}

/**
 * Reads and checks the environment once, at cold start. Throws `ConfigurationError` naming the variable and the
 * fix. `POWERTOOLS_LOG_LEVEL` is optional (default `INFO`); every other variable is required.
 */
export function readPipelineConfig(env: Environment): PipelineConfig {
  return {
    idempotencyTableName: requireString(env, ContractEnv.IdempotencyTableName),
    expiresAfterSeconds: requirePositiveInteger(env, ContractEnv.ExpiresAfterSeconds),
    payloadFields: readPayloadFields(env),
    fieldRules: readFieldRules(env),
    serviceName: requireString(env, ContractEnv.ServiceName),
    logLevel: optionalOneOf(env, ContractEnv.LogLevel, LOG_LEVELS) ?? "INFO",
    functionName: requireString(env, RuntimeEnv.FunctionName),
    region: requireString(env, RuntimeEnv.Region),
  };
}
