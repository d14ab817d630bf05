/**
 * Errors raised by the pipeline's Lambda functions.
 *
 * The Node.js Lambda runtime reports `error.name` as the `errorType`, and Step Functions matches its
 * Catch rules on that string, so every class sets `name` explicitly (bundlers may rename classes).
 */

/** Root of every error a pipeline function raises on purpose. */
export class PipelineFunctionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineFunctionError";
  }
}

/** The function's environment is missing a variable or holds an invalid value (raised at cold start). */
export class ConfigurationError extends PipelineFunctionError {
  readonly variable: string;

  constructor(variable: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConfigurationError";
    this.variable = variable;
  }
}

/** The event is malformed: retrying cannot help. Permanent. */
export class ValidationError extends PipelineFunctionError {
  /** Path of the offending field in the event, e.g. `payload.amount`. */
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ValidationError";
    this.field = field;
  }
}

/** The downstream already holds a different charge under this idempotency key. Permanent. */
export class DownstreamConflictError extends PipelineFunctionError {
  readonly idempotencyKey: string;

  constructor(idempotencyKey: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamConflictError";
    this.idempotencyKey = idempotencyKey;
  }
}

/** The downstream refuses this request for a business reason (e.g. above a limit); retrying cannot help. Permanent. */
export class DownstreamRefusedError extends PipelineFunctionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamRefusedError";
  }
}

/** The downstream answered in a way that should clear up on a later attempt. Transient. */
export class DownstreamStateError extends PipelineFunctionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamStateError";
  }
}

/**
 * Error names the state machine treats as permanent: release the claim and quarantine with reason `rejected`.
 * Everything else, including Powertools' `IdempotencyAlreadyInProgressError`, is transient: release and retry.
 */
export const PERMANENT_ERROR_NAMES = ["ValidationError", "DownstreamRefusedError"] as const;

/**
 * Error names that mean "this key was applied with another payload": release the claim and quarantine with
 * reason `payload-mismatch`, like a conflict the ledger finds itself. `IdempotencyValidationError` is the `name`
 * Powertools idempotency 2.35 sets when the same key arrives with a different payload (the ledger forgot the key:
 * lease takeover, an operator's release, a failed Complete); `DownstreamConflictError` is the downstream's own.
 */
export const CONFLICT_ERROR_NAMES = ["IdempotencyValidationError", "DownstreamConflictError"] as const;

/** True when retrying the same message can never succeed. */
export function isPermanentError(error: unknown): boolean {
  return error instanceof Error && ([...PERMANENT_ERROR_NAMES, ...CONFLICT_ERROR_NAMES] as readonly string[]).includes(error.name);
}
