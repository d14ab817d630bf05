/**
 * Error names that the downstream function and the state machine agree on. The Node.js Lambda runtime reports
 * `error.name` as the `errorType`, and the state machine's Catch rules match that string exactly. The construct
 * uses these lists as its defaults, and the handler wrapper's classes carry these names
 * (`functions/errors.ts`). So a team that throws the wrapper's errors, or subclasses of them, lists nothing.
 */

/** Permanent: the claim is released and the message is quarantined with reason `rejected`. */
export const PERMANENT_ERROR_NAMES = ["PermanentError", "ValidationError", "DownstreamRefusedError"] as const;

/**
 * Conflicts: the key was applied with another payload. The claim is released and the message is quarantined
 * with reason `payload-mismatch`, as for a conflict the ledger finds itself. `IdempotencyValidationError` is the
 * name Powertools idempotency 2.35 sets when a key comes back with another payload hash. That happens when the
 * ledger forgot the key: a lease takeover, an operator's release or a failed Complete.
 */
export const CONFLICT_ERROR_NAMES = ["IdempotencyValidationError", "ConflictError", "DownstreamConflictError"] as const;
