import {
  type Environment,
  optionalOneOf,
  requireNameList,
  requirePositiveInteger,
  requireString,
} from "../../../functions/env";
import type { FieldRule } from "../../../src/contract/field-rules";
import { CONTRACT_ENV } from "../../../src/contract/function-env";
import { readFieldRules } from "../../../functions/contract";

/** Environment variables the payments function reads. The infrastructure construct sets them. */
export const PAYMENTS_ENV = {
  IDEMPOTENCY_TABLE_NAME: "IDEMPOTENCY_TABLE_NAME",
  EFFECTS_TABLE_NAME: "EFFECTS_TABLE_NAME",
  IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "IDEMPOTENCY_EXPIRES_AFTER_SECONDS",
  PAYLOAD_FIELDS: CONTRACT_ENV.PAYLOAD_FIELDS,
  FIELD_RULES: CONTRACT_ENV.FIELD_RULES,
  POWERTOOLS_SERVICE_NAME: "POWERTOOLS_SERVICE_NAME",
  POWERTOOLS_LOG_LEVEL: "POWERTOOLS_LOG_LEVEL",
  AWS_LAMBDA_FUNCTION_NAME: "AWS_LAMBDA_FUNCTION_NAME",
  AWS_REGION: "AWS_REGION",
} as const;

export const LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "CRITICAL", "SILENT"] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface PaymentsConfig {
  /** Powertools idempotency table (hash key `id`, TTL `expiration`). */
  readonly idempotencyTableName: string;
  /** The downstream stand-in's table (`pk`/`sk`, TTL `expiresAt`). */
  readonly effectsTableName: string;
  /** Lifetime of Powertools records and of the downstream's items; aligned with the ledger retention. */
  readonly expiresAfterSeconds: number;
  /** Top-level payload fields the payload hash covers, sorted and de-duplicated. */
  readonly payloadFields: readonly string[];
  /** The pipeline's field rules, in checking order (PIPELINE_FIELD_RULES). */
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
  readonly serviceName: string;
  readonly logLevel: LogLevelName;
  /** Powertools prefixes every record id with it, so functions sharing a table never collide. */
  readonly functionName: string;
  readonly region: string;
}

/** Reads and checks the environment once, at cold start; throws `ConfigurationError` naming the variable. */
export function readPaymentsConfig(env: Environment): PaymentsConfig {
  return {
    idempotencyTableName: requireString(env, PAYMENTS_ENV.IDEMPOTENCY_TABLE_NAME),
    effectsTableName: requireString(env, PAYMENTS_ENV.EFFECTS_TABLE_NAME),
    expiresAfterSeconds: requirePositiveInteger(env, PAYMENTS_ENV.IDEMPOTENCY_EXPIRES_AFTER_SECONDS),
    payloadFields: requireNameList(env, PAYMENTS_ENV.PAYLOAD_FIELDS),
    fieldRules: readFieldRules(env),
    serviceName: requireString(env, PAYMENTS_ENV.POWERTOOLS_SERVICE_NAME),
    logLevel: optionalOneOf(env, PAYMENTS_ENV.POWERTOOLS_LOG_LEVEL, LOG_LEVELS) ?? "INFO",
    functionName: requireString(env, PAYMENTS_ENV.AWS_LAMBDA_FUNCTION_NAME),
    region: requireString(env, PAYMENTS_ENV.AWS_REGION),
  };
}
