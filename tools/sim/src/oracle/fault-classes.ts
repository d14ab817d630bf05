/**
 * What each simulated fault surfaces and how the guarantees (docs/guarantees.md) say the pipeline must treat it, written from
 * the contract (only the wrapper's branded errors are permanent or conflicts), never read from the definition: a
 * state machine that quarantines one of these is the mistake the model must catch.
 */
import { FaultKind } from "../scenario/shape";

export const FaultClass = {
  /** Retried inside the state (Retry): costs nothing. */
  Absorbed: "absorbed",
  /** Hands the record back (or holds it up): may cost a receive, never a quarantine. */
  Retried: "retried",
  /** Quarantined as rejected: the contract's permanent errors. */
  Permanent: "permanent",
} as const;
export type FaultClass = (typeof FaultClass)[keyof typeof FaultClass];

/** Each fault kind: the error the pipeline meets, where, and its class. */
export const FAULT_CLASSES: ReadonlyMap<FaultKind, { readonly error: string; readonly at: string; readonly class: FaultClass }> = new Map([
  [FaultKind.FnCrashBefore, { error: "Runtime.ExitError", at: "Invoke", class: FaultClass.Retried }],
  [FaultKind.FnCrashAfter, { error: "Runtime.ExitError (after the side effect)", at: "Invoke", class: FaultClass.Retried }],
  [FaultKind.FnThrottle, { error: "Lambda.TooManyRequestsException, past the Retry", at: "Invoke", class: FaultClass.Retried }],
  [FaultKind.FnHang, { error: "Sandbox.Timedout / States.Timeout", at: "Invoke, then a late Release", class: FaultClass.Retried }],
  [FaultKind.FnTimeout, { error: "Sandbox.Timedout", at: "Invoke", class: FaultClass.Retried }],
  [FaultKind.LedgerFail, { error: "DynamoDB.InternalServerErrorException, past the Retry", at: "Claim", class: FaultClass.Retried }],
  [FaultKind.LedgerReadFail, { error: "DynamoDB.InternalServerErrorException, past the Retry", at: "Inspect, Complete, Release", class: FaultClass.Retried }],
  [FaultKind.VisibilityExpiry, { error: "(none: a second concurrent delivery)", at: "the queue", class: FaultClass.Retried }],
  [FaultKind.QuarantineFail, { error: "SQS ServiceUnavailable, past the Retry", at: "Quarantine", class: FaultClass.Retried }],
  [FaultKind.WorkerPause, { error: "(none: a late Complete or Release)", at: "Complete, Release", class: FaultClass.Retried }],
  [FaultKind.LedgerBlip, { error: "two DynamoDB throttles, 5xx, unmodeled errors or no answer", at: "every ledger state", class: FaultClass.Absorbed }],
  [FaultKind.LedgerLostAnswer, { error: "DynamoDB.InternalServerErrorException after the write", at: "Claim", class: FaultClass.Absorbed }],
  [FaultKind.FnBlip, { error: "two Lambda service errors", at: "Invoke", class: FaultClass.Absorbed }],
  [FaultKind.DlqBlip, { error: "one SQS throttle", at: "Quarantine", class: FaultClass.Absorbed }],
  // The Complete's Catch goes to Processed: the record is done, its claim left IN_PROGRESS (the ledger loses the key).
  [FaultKind.CompleteFail, { error: "DynamoDB.InternalServerErrorException on every Complete attempt", at: "Complete", class: FaultClass.Absorbed }],
  // The wrapper bounds what it returns and stores (functions/src/result-bound.ts): the record is processed as usual.
  [FaultKind.ResultOverPayload, { error: "(none: a 300 KiB result, bounded by the wrapper)", at: "Invoke", class: FaultClass.Absorbed }],
  [FaultKind.ResultOverItem, { error: "(none: a 500 KB result, bounded by the wrapper)", at: "Invoke", class: FaultClass.Absorbed }],
]);

/**
 * Faults after which the function may run again for a key without a new charge: the handler ran and its answer was
 * lost (a crash after the side effect), or the claim it ran under was left IN_PROGRESS (Complete failed, paused, or
 * stalled behind a hung invocation), so a later copy takes the key over and Powertools answers it. Any other fault
 * stops the invocation before the handler or leaves no claim behind.
 */
export const RUN_REPEATING_FAULTS: readonly FaultKind[] = [FaultKind.FnCrashAfter, FaultKind.LedgerReadFail, FaultKind.WorkerPause, FaultKind.FnHang, FaultKind.CompleteFail];

/** Faults that may end a message `rejected` (none: no simulated fault raises a branded error). */
export const PERMANENT_FAULTS: readonly FaultKind[] = [...FAULT_CLASSES].filter(([, c]) => c.class === FaultClass.Permanent).map(([k]) => k);
