/** Shared checks for integration requests. */
import { StatesError, StatesErrorName } from "../errors";

/** A task needs a client that was not configured: fails the execution naming the option/env to set. */
export function missingClient(resourceArn: string, option: string, cli: string): StatesError {
  return new StatesError(
    StatesErrorName.Runtime,
    `The resource '${resourceArn}' needs a client that is not configured: pass ${option} to createStateMachine (CLI: ${cli}).`,
  );
}

export function requireObject(parameters: unknown, resourceArn: string): Record<string, unknown> {
  if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) {
    throw new StatesError(
      StatesErrorName.Runtime,
      `The parameters of '${resourceArn}' must be a JSON object, but were: ${JSON.stringify(parameters)}`,
    );
  }
  return parameters as Record<string, unknown>;
}
