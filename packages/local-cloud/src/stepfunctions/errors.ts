/**
 * Errors of the Step Functions interpreter.
 *
 * Two kinds: {@link DefinitionError} (the definition or a call is unusable; thrown to the caller) and
 * {@link StatesError} (a run-time error inside an execution, carrying the AWS error name and cause; it is
 * what Retry/Catch match on and what a failed execution reports).
 */

/** Root of every error this module throws. */
export class StepFunctionsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StepFunctionsError";
  }
}

/** The definition is invalid (found when the state machine is created). */
export class DefinitionError extends StepFunctionsError {
  /** Each problem found, one sentence each, with the JSON location (e.g. `/States/Claim/Next`). */
  readonly problems: readonly string[];
  constructor(problems: readonly string[], options?: { cause?: unknown }) {
    super(
      problems.length === 1
        ? `Invalid state machine definition: ${problems[0]}`
        : `Invalid state machine definition (${problems.length} problems):\n- ${problems.join("\n- ")}`,
      options,
    );
    this.name = "DefinitionError";
    this.problems = problems;
  }
}

/** Bad arguments to the public API (not a definition problem). */
export class InvalidArgumentError extends StepFunctionsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidArgumentError";
  }
}

/**
 * A run-time error inside an execution, as Step Functions names it (`States.TaskFailed`,
 * `DynamoDB.ConditionalCheckFailedException`, a Lambda `errorType`, ...).
 * `error` is the ASL error name; `message` equals the cause.
 */
export class StatesError extends StepFunctionsError {
  /** The ASL error name matched by `ErrorEquals`. */
  readonly error: string;
  /** The cause string (AWS wording where AWS has one). */
  readonly causeText: string;
  /** Where a JSONata evaluation failed, e.g. `Arguments/FunctionName` (EvaluationFailed events). */
  readonly location?: string;
  /** No Retry or Catch handles it, whatever its name (e.g. a state output over the payload quota). */
  readonly terminal: boolean;
  constructor(error: string, cause: string, options?: { cause?: unknown; location?: string; terminal?: boolean }) {
    super(cause, options);
    this.name = "StatesError";
    this.error = error;
    this.causeText = cause;
    this.location = options?.location;
    this.terminal = options?.terminal ?? false;
  }
}

/** Error names Step Functions reserves. */
export const StatesErrorName = {
  All: "States.ALL",
  Timeout: "States.Timeout",
  HeartbeatTimeout: "States.HeartbeatTimeout",
  TaskFailed: "States.TaskFailed",
  Permissions: "States.Permissions",
  Runtime: "States.Runtime",
  DataLimitExceeded: "States.DataLimitExceeded",
  QueryEvaluationError: "States.QueryEvaluationError",
  ResultPathMatchFailure: "States.ResultPathMatchFailure",
  ParameterPathFailure: "States.ParameterPathFailure",
  IntrinsicFailure: "States.IntrinsicFailure",
  BranchFailed: "States.BranchFailed",
  NoChoiceMatched: "States.NoChoiceMatched",
  ExceedToleratedFailureThreshold: "States.ExceedToleratedFailureThreshold",
} as const;

/**
 * Error names that no Retry or Catch can handle. States.DataLimitExceeded is not among them: a task result over
 * the quota is caught (recorded on AWS); the terminal cases carry `StatesError.terminal` instead.
 */
export function isUncatchable(error: string): boolean {
  return error === StatesErrorName.Runtime;
}

/** Turns anything thrown inside an execution into a StatesError (unknown failures are States.Runtime). */
export function toStatesError(err: unknown): StatesError {
  if (err instanceof StatesError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new StatesError(StatesErrorName.Runtime, message, { cause: err });
}

/**
 * The error and cause of a failure as AWS reports them: a field a Fail state did not set is absent (LocalStack's
 * AWS-validated snapshot test_base.py::test_state_fail_empty: `executionFailedEventDetails: {}` and no
 * `error`/`cause` in DescribeExecution).
 */
export function errorFields(e: StatesError): { error?: string; cause?: string } {
  const flags = e as { hasError?: boolean; hasCause?: boolean };
  const out: { error?: string; cause?: string } = {};
  if (flags.hasError !== false) out.error = e.error;
  if (flags.hasCause !== false) out.cause = e.causeText;
  return out;
}
