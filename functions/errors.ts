/**
 * Errors of the pipeline's downstream function, and how the state machine treats them.
 *
 * The Node.js Lambda runtime reports `error.name` as the `errorType`, and Step Functions matches its Catch rules on
 * that string. So every class sets `name` explicitly, because bundlers may rename classes. The names are the
 * construct's defaults (`src/contract/error-names.ts`):
 *
 * - throw a {@link PermanentError} (or a subclass) when retrying cannot help: the message is quarantined `rejected`;
 * - throw a {@link ConflictError} (or a subclass) when the key was already applied with another payload: the
 *   message is quarantined `payload-mismatch`;
 * - anything else is transient: the claim is released and the message is retried.
 *
 * A subclass may set a `name` of its own. The handler wrapper then reports it under its base class's name
 * ({@link reportedError}), so the state machine still recognises it without listing the name in the construct.
 */
import { IdempotencyAlreadyInProgressError, IdempotencyRecordStatus } from "@aws-lambda-powertools/idempotency";
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "../src/contract/error-names";

export { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES };

/** Root of every error the pipeline's function raises on purpose. */
export class PipelineFunctionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipelineFunctionError";
  }
}

/** Retrying the same message can never succeed: it is quarantined with reason `rejected`. */
export class PermanentError extends PipelineFunctionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentError";
  }
}

/** The key was already applied with another payload: the message is quarantined with reason `payload-mismatch`. */
export class ConflictError extends PipelineFunctionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConflictError";
  }
}

/** The function's environment is missing a variable or holds an invalid value (raised at cold start). */
export class ConfigurationError extends PipelineFunctionError {
  /** The variable to fix. */
  readonly variable: string;

  constructor(variable: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConfigurationError";
    this.variable = variable;
  }
}

/** The event is malformed (a field breaks the pipeline's rules). Permanent. */
export class ValidationError extends PermanentError {
  /** Path of the offending field in the event, e.g. `payload.amount`. */
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ValidationError";
    this.field = field;
  }
}

/** The downstream refuses this request for a business reason (e.g. a currency it does not take). Permanent. */
export class DownstreamRefusedError extends PermanentError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamRefusedError";
  }
}

/** The downstream already holds a different effect under this idempotency key. A conflict. */
export class DownstreamConflictError extends ConflictError {
  /** The key the downstream holds the other effect under. */
  readonly idempotencyKey: string;

  constructor(idempotencyKey: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamConflictError";
    this.idempotencyKey = idempotencyKey;
  }
}

/** The downstream answered in a way that should clear up on a later attempt. Transient. */
export class DownstreamStateError extends PipelineFunctionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DownstreamStateError";
  }
}

const PERMANENT: readonly string[] = PERMANENT_ERROR_NAMES;
const CONFLICT: readonly string[] = CONFLICT_ERROR_NAMES;

/**
 * True when retrying the same message can never succeed: a permanent error or a conflict, by class or by one of
 * the default names (Powertools' `IdempotencyValidationError` is matched by name).
 */
export function isPermanentError(error: unknown): boolean {
  if (error instanceof PermanentError || error instanceof ConflictError) return true;
  return error instanceof Error && (PERMANENT.includes(error.name) || CONFLICT.includes(error.name));
}

/**
 * The error as the function reports it: a subclass of {@link PermanentError} or {@link ConflictError} whose own
 * name the state machine does not know is reported under its base class's name. It keeps its message (the DLQ's
 * `detail`) and has the original as its `cause`. Every other error passes unchanged.
 */
export function reportedError(error: unknown): unknown {
  if (error instanceof PermanentError && !PERMANENT.includes(error.name)) {
    return new PermanentError(error.message, { cause: error });
  }
  if (error instanceof ConflictError && !CONFLICT.includes(error.name)) {
    return new ConflictError(error.message, { cause: error });
  }
  return error;
}

/**
 * Powertools compares the payload before the status, so an invocation for another payload that is still under way
 * (an INPROGRESS record, e.g. one a timed-out execution left running) reads as a conflict although that payload may
 * yet fail and leave the key unapplied. It is a conflict only once that record completes: until then the error is
 * reported as in progress (transient), so the message is retried and meets a completed record (then a conflict) or
 * none. Every other error passes unchanged.
 */
export function conflictOnlyWhenCompleted(error: unknown): unknown {
  if (!(error instanceof Error) || error.name !== "IdempotencyValidationError") return error;
  const record = (error as { existingRecord?: { getStatus?: () => string } }).existingRecord;
  if (record?.getStatus?.() !== IdempotencyRecordStatus.INPROGRESS) return error;
  return new IdempotencyAlreadyInProgressError("another payload's invocation is in progress for this key: retried once it ends", record as ConstructorParameters<typeof IdempotencyAlreadyInProgressError>[1], { cause: error });
}
