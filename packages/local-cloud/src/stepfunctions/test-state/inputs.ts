/**
 * The JSON members of a TestState request read as values: `input` (InvalidExecutionInput when it is not JSON, in
 * the form AWS uses for StartExecution), `variables` (a JSON object of valid variable names) and `roleArn` (an IAM
 * role ARN; required to test a Task that is not mocked, in AWS's recorded words).
 */
import { VARIABLE_NAME } from "../definition/compile";
import type { StateUnderTest } from "./definition";
import { InvalidArn, InvalidExecutionInput, ValidationException } from "./errors";
import type { TestStateInput } from "./types";

const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/;

/** The state's input: `{}` when the request gives none. */
export function stateInput(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InvalidExecutionInput(`Invalid State Machine Execution Input: '${(e as Error).message}'`);
  }
}

/**
 * The variables in scope, in an object without a prototype: a variable named `__proto__` or `constructor` is a
 * variable like any other.
 */
export function stateVariables(text: string | undefined): Record<string, unknown> {
  const vars = Object.create(null) as Record<string, unknown>;
  if (text === undefined) return vars;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new ValidationException(`variables must be a JSON object of variable name to value: ${(e as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ValidationException(`variables must be a JSON object of variable name to value, got ${JSON.stringify(parsed)}`);
  }
  for (const [name, value] of Object.entries(parsed)) {
    if (!VARIABLE_NAME.test(name) || name === "states") {
      throw new ValidationException(`variables: '${name}' is not a valid variable name (a letter or _, then letters, digits or _; 'states' is reserved)`);
    }
    Object.defineProperty(vars, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return vars;
}

/** Checks `roleArn`: a Task that calls its integration needs one, as on AWS. */
export function checkRole(request: TestStateInput, subject: StateUnderTest): void {
  if (request.roleArn === undefined) {
    if (subject.type === "Task" && !request.mock) throw new ValidationException("RoleArn must be specified when testing a Task state");
    return;
  }
  if (!ROLE_ARN.test(request.roleArn)) {
    throw new InvalidArn(`Invalid Arn: '${request.roleArn}' is not an IAM role ARN (arn:aws:iam::123456789012:role/<name>)`);
  }
}
