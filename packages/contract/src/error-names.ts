/**
 * Error names that the downstream function and the state machine agree on. The Node.js Lambda runtime reports
 * `error.name` as the `errorType`, and the state machine's Catch rules match that string exactly. Common libraries
 * reuse plain names (joi, yup, mongoose and sequelize throw `ValidationError`; http-errors names an HTTP 409
 * `ConflictError`, often transient), so the state machine matches only names no library uses: the handler wrapper
 * recognises its own errors by a brand, not by name, and reports them under these reserved names
 * (`handler/errors.ts`). The construct uses these lists as its defaults.
 */

/** What the wrapper reports a permanent error as: the message is quarantined with reason `rejected`. */
export const PIPELINE_REJECTED = "PipelineRejected";

/** What the wrapper reports a conflict as: the message is quarantined with reason `payload-mismatch`. */
export const PIPELINE_CONFLICT = "PipelineConflict";

/**
 * The name Powertools idempotency 2.35 sets when a key comes back with another payload hash. That happens when the
 * ledger forgot the key: a lease takeover, an operator's release or a failed Complete. The wrapper passes it on
 * only when it is Powertools' own class.
 */
const POWERTOOLS_CONFLICT = "IdempotencyValidationError";

/** Permanent: the claim is released and the message is quarantined with reason `rejected`. */
export const PERMANENT_ERROR_NAMES = [PIPELINE_REJECTED] as const;

/**
 * Conflicts: the key was applied with another payload. The claim is released and the message is quarantined
 * with reason `payload-mismatch`, as for a conflict the ledger finds itself.
 */
export const CONFLICT_ERROR_NAMES = [POWERTOOLS_CONFLICT, PIPELINE_CONFLICT] as const;

/** Every name the state machine quarantines by default: an error that is not the wrapper's own never carries one. */
export const RESERVED_ERROR_NAMES: readonly string[] = [...PERMANENT_ERROR_NAMES, ...CONFLICT_ERROR_NAMES];
