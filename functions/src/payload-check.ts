/**
 * The function's side of the pipeline contract (packages/contract/src/): the same field rules and canonical payload hash
 * as the state machine, read from the environment the construct sets. Both layers therefore give one message one
 * fate, whichever reaches it first.
 */
import { nestsTooDeep, payloadHash } from "@effectively-once/contract";
import { DecodeProblem } from "@effectively-once/contract";
import { CanonicalValueError, ContractConfigError } from "@effectively-once/contract";
import { assertFieldRules, firstFieldProblem, type FieldRule } from "@effectively-once/contract";
import { ContractEnv, decodePayloadFields } from "@effectively-once/contract";
import type { Environment } from "./env";
import { requireString } from "./env";
import { ConfigurationError, ValidationError } from "./errors";

/** The part of the pipeline contract the function checks an event against. */
export interface FunctionContract {
  /** Fields checked, in order, with their rules. */
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
  /** Fields covered by the payload hash. */
  readonly payloadFields: readonly string[];
}

/** Reads PAYLOAD_FIELDS (JSON `["amount", ...]`), sorted and de-duplicated; throws `ConfigurationError` naming it. */
export function readPayloadFields(env: Environment): string[] {
  const name = ContractEnv.PayloadFields;
  try {
    return decodePayloadFields(requireString(env, name));
  } catch (error) {
    if (!(error instanceof ContractConfigError)) throw error;
    throw new ConfigurationError(name, error.message, { cause: error });
  }
}

/** Reads PIPELINE_FIELD_RULES (JSON `[[field, rule], ...]`); throws `ConfigurationError` naming it. */
export function readFieldRules(env: Environment): [string, FieldRule][] {
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

/**
 * Checks a payload as the state machine's Decode step does (depth, field rules, exact numbers) and returns its
 * payload hash. Throws `ValidationError` naming the field and the fix.
 */
export function checkPayload(payload: Readonly<Record<string, unknown>>, contract: FunctionContract): string {
  if (nestsTooDeep(payload)) throw new ValidationError("payload", DecodeProblem.tooDeep);
  const problem = firstFieldProblem(payload, contract.fieldRules as [string, FieldRule][]);
  if (problem) throw new ValidationError(`payload.${problem.slice(0, problem.indexOf(":"))}`, problem);
  try {
    return payloadHash(payload, contract.payloadFields);
  } catch (error) {
    if (error instanceof CanonicalValueError) throw new ValidationError(`payload.${error.field}`, error.message, { cause: error });
    throw error;
  }
}
