/**
 * The invocation log's format: the function writes one line per invocation (`@effectively-once/functions`), and the
 * harness counts applications from those lines (`@effectively-once/local-cloud/harness`).
 */

/** What one invocation ended in, as the function saw it. */
export const InvocationOutcome = {
  /** The work ran and reported its own outcome (e.g. `applied` / `replayed`); this is the fallback word. */
  Processed: "processed",
  /** Powertools answered from a completed record: the work did not run again. */
  Duplicate: "duplicate",
  /** A permanent error: the state machine quarantines the message. */
  Rejected: "rejected",
  /** Any other error: the state machine releases the claim and the message is retried. */
  Failed: "failed",
} as const;
export type InvocationOutcome = (typeof InvocationOutcome)[keyof typeof InvocationOutcome];

/**
 * The messages of the lines the wrapper writes for an invocation, or a batch's record, that ended in an error. The
 * `function-errors` alarm's metric filters match them word for word: a line's `outcome` alone is no proof, since work
 * may note its own `outcome` (a downstream status "failed" on an invocation that succeeded) and the team's logger writes
 * to the same log group. Powertools keeps `message` at the line's top level and drops a `message` passed among the
 * line's keys (a reserved key), so no note can write it. Unchanged since the workspaces moved apart (2026-12-02): a
 * change would stop the deployed filters from matching the lines of a function built before it.
 */
export const InvocationErrorMessage = {
  Rejected: "invocation rejected: permanent error, the message will be quarantined",
  Failed: "invocation failed: transient error, the message will be retried",
} as const;

/**
 * The field (`true`) on the line of an invocation that ended by throwing its error: Lambda counts exactly those
 * invocations in its `Errors` metric. A record of a batch that fails is answered inside the batch's answer (the
 * invocation returns normally), so its line never carries the field. The `function-errors` alarm subtracts from
 * `Errors` the rejections whose line carries it (the construct's `<function>-rejected-invocations` metric filter), and
 * adds the failures whose line lacks it (`<function>-batch-record-failures`): a batch record's, which Lambda did not
 * count. So a batch record's line must never carry the field, not even as `false`.
 */
export const FUNCTION_ERROR_FIELD = "functionError";
