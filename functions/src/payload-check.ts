/**
 * The function's side of the pipeline contract (packages/contract/src/): the same field rules and canonical payload hash
 * as the state machine, as config.ts read them from the environment the construct sets. Both layers therefore give one
 * message one fate, whichever reaches it first.
 */
import { nestsTooDeep, payloadHash } from "@effectively-once/contract";
import { DecodeProblem } from "@effectively-once/contract";
import { CanonicalValueError } from "@effectively-once/contract";
import { firstFieldProblem, type FieldRule } from "@effectively-once/contract";
import { ValidationError } from "./errors";

/** The part of the pipeline contract the function checks an event against. */
export interface FunctionContract {
  /** Fields checked, in order, with their rules. */
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
  /** Fields covered by the payload hash. */
  readonly payloadFields: readonly string[];
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
