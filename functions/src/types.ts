import type { Context } from "aws-lambda";
import type { LogFields } from "./invocation-log";
import type { InvocationEvent } from "@effectively-once/contract";

/** A message payload: the parsed SQS body. */
export type Payload = Readonly<Record<string, unknown>>;

/**
 * The event a side effect receives: what the state machine passes to `lambda:invoke`, checked against the
 * pipeline's field rules, plus the canonical payload hash. `payload` holds what the field rules promise (declare a
 * rule for every field the side effect reads); other fields pass through untouched.
 */
export interface PipelineEvent<P extends Payload = Payload> extends InvocationEvent<P> {
  /** SHA-256 (hex) of the canonical JSON of the payload fields: the value the ledger stores. A good fingerprint. */
  readonly payloadHash: string;
}

/** What a side effect gets besides its event. */
export interface SideEffectContext<R = undefined> {
  /** The Lambda context of this invocation. */
  readonly lambda: Context;
  /** What the handler's `setup` built at cold start (e.g. an `EffectJournal`). */
  readonly resources: R;
  /**
   * Adds fields (e.g. `{ outcome: "applied", chargeId }`) to this invocation's one log line. On a failure the line's
   * `outcome` and `functionError` are the wrapper's (the function-errors alarm reads them), and Powertools keeps its own
   * `message` and `level`.
   */
  note(fields: LogFields): void;
}

/**
 * The user's side effect: applies the event's intent once and returns a JSON-serializable result. Powertools stores
 * the result and returns it for duplicates, so a duplicate gets the first run's result back. Throw a
 * `PermanentError` (quarantined `rejected`) or a `ConflictError` (quarantined `payload-mismatch`), or a subclass;
 * anything else is retried, whatever its name. The event is the side effect's own deep copy: it may change it (e.g.
 * normalise a field) without changing the record Powertools keeps for the key.
 */
export type SideEffect<P extends Payload, T, R = undefined> = (event: PipelineEvent<P>, context: SideEffectContext<R>) => Promise<T>;
