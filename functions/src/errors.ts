/**
 * Errors of the pipeline's downstream function, and how the state machine treats them.
 *
 * The Node.js Lambda runtime reports `error.name` as the `errorType`, and Step Functions matches its Catch rules on
 * that string. Plain names are ambiguous: joi, yup, mongoose and sequelize throw a `ValidationError`, http-errors
 * names an HTTP 409 (often "try again later") `ConflictError`. So the wrapper recognises its own errors by a brand
 * on their prototype (a `Symbol.for` key, so two copies of this package agree), never by name, and reports them
 * under reserved names (`packages/contract/src/error-names.ts`), the construct's defaults:
 *
 * - throw a {@link PermanentError} (or a subclass) when retrying cannot help: reported as `PipelineRejected`, the
 *   message is quarantined `rejected`;
 * - throw a {@link ConflictError} (or a subclass) when the key was already applied with another payload: reported
 *   as `PipelineConflict`, the message is quarantined `payload-mismatch`; Powertools' own
 *   `IdempotencyValidationError` passes unchanged and is quarantined the same way;
 * - anything else is transient: the claim is released and the message is retried, whatever its name
 *   ({@link reportedError} renames an unbranded error that carries a reserved name).
 */
import { IdempotencyAlreadyInProgressError, IdempotencyRecordStatus, IdempotencyValidationError } from "@aws-lambda-powertools/idempotency";
import { PIPELINE_CONFLICT, PIPELINE_REJECTED, RESERVED_ERROR_NAMES } from "@effectively-once/contract";


/**
 * The brand's key. Part of the contract between copies of this package (a function bundle may hold two): keep it.
 * Its value on a prototype is the error's kind.
 */
const ERROR_KIND = Symbol.for("effectively-once-pipeline.error-kind");

/** What a branded error means to the state machine. */
type ErrorKind = "permanent" | "conflict";

const REPORTED_AS: Record<ErrorKind, string> = { permanent: PIPELINE_REJECTED, conflict: PIPELINE_CONFLICT };

/** The brand of `error` (own or inherited), if it carries a valid one. */
function errorKind(error: unknown): ErrorKind | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const kind = (error as { [ERROR_KIND]?: unknown })[ERROR_KIND];
  return kind === "permanent" || kind === "conflict" ? kind : undefined;
}

/** Non-enumerable, so loggers and serialisers never show it. */
function brand(prototype: object, kind: ErrorKind): void {
  Object.defineProperty(prototype, ERROR_KIND, { value: kind, enumerable: false, writable: false });
}

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

brand(PermanentError.prototype, "permanent");
brand(ConflictError.prototype, "conflict");

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

/** An error reported under its kind's reserved name, keeping the original as its cause. */
class ReportedError extends Error {
  constructor(kind: ErrorKind, error: Error) {
    // The DLQ's `detail` is `<errorType>: <errorMessage>`: the original class stays readable there.
    super(`${error.name}: ${error.message}`, { cause: error });
    this.name = REPORTED_AS[kind];
    brand(this, kind);
  }
}

/**
 * An error that is not the wrapper's own but carries a reserved name (or Powertools' name without being its
 * class): reported under this name instead, so it is retried like any other unknown error.
 */
export class ReservedNameError extends PipelineFunctionError {
  constructor(error: Error) {
    super(`${error.name}: ${error.message}`, { cause: error });
    this.name = "ReservedNameError";
  }
}

/** Powertools' conflict, by its class: a look-alike name from elsewhere does not count. */
function isPowertoolsConflict(error: unknown): boolean {
  return error instanceof IdempotencyValidationError;
}

/**
 * True when retrying the same message can never succeed: a branded permanent error or conflict (from any copy of
 * this package), or Powertools' `IdempotencyValidationError`. Names do not count.
 */
export function isPermanentError(error: unknown): boolean {
  return errorKind(error) !== undefined || isPowertoolsConflict(error);
}

/**
 * The invocation log's test for a rejection, as the workflow decides it: {@link isPermanentError}, or an error reported
 * under a name the stack added to the workflow's permanent or conflict lists (`PIPELINE_REJECTION_ERRORS`), which
 * the workflow quarantines by that name. Without it such a line said `failed`, and the function-errors alarm paged
 * for a business refusal.
 */
export function rejectionTest(addedNames: readonly string[]): (error: unknown) => boolean {
  const added = new Set(addedNames);
  return (error) => {
    if (isPermanentError(error)) return true;
    const reported = reportedError(error);
    return reported instanceof Error && added.has(reported.name);
  };
}

/**
 * The error as the function reports it to the runtime:
 * - a branded error under its kind's reserved name (`PipelineRejected`, `PipelineConflict`), with the message
 *   `<its name>: <its message>` and the original as its `cause`;
 * - Powertools' `IdempotencyValidationError` unchanged;
 * - any other error that carries a reserved name as a {@link ReservedNameError} (transient);
 * - everything else unchanged.
 */
export function reportedError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const kind = errorKind(error);
  if (kind) return error.name === REPORTED_AS[kind] ? error : new ReportedError(kind, error);
  if (isPowertoolsConflict(error)) return error;
  return RESERVED_ERROR_NAMES.includes(error.name) ? new ReservedNameError(error) : error;
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
