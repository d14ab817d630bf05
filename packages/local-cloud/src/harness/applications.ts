import { CallOutcome, effectKey } from "@effectively-once/contract";
import { InvocationOutcome } from "@effectively-once/contract";
import type { KeyEffects } from "../observe";

/** One application of the side effect, as the team's own records show it. */
export interface Application {
  /** The effect key of the message applied: `effectKey(event.businessKey, event.operation)` of the handler wrapper. */
  readonly effectKey: string;
  /** The SQS message id of the message applied (`event.messageId`). */
  readonly messageId: string;
  /** When it was applied (ISO 8601), if the record says. */
  readonly appliedAt?: string;
}

/** Reads the team's record of applications once the pipeline settled (a Scan of its table, a call to its API, …). */
export type ApplicationReader = () => Promise<Iterable<Application>>;

/** One invocation of the function, as the handler wrapper's log line records it. */
export interface InvocationRecord {
  /** The SQS message id the invocation handled (`event.messageId`). */
  readonly messageId: string;
  /** The business key's canonical text (`event.businessKey`). */
  readonly businessKey: string;
  /** The operation the stack applies (`event.operation`). */
  readonly operation: string;
  /** `processed`, a side effect's own word such as `applied`, or `duplicate` / `rejected` / `failed`. */
  readonly outcome: string;
}

/** Outcomes in which the side effect did not run to its end: everything else counts as one application. */
const NOT_APPLIED = new Set<string>([InvocationOutcome.Duplicate, InvocationOutcome.Rejected, InvocationOutcome.Failed, CallOutcome.Replayed, CallOutcome.Conflict, CallOutcome.Refused]);

/** Whether an invocation ran the side effect to its end (one application). */
function invocationApplied(record: InvocationRecord): boolean {
  return !NOT_APPLIED.has(record.outcome);
}

function entryOf(byKey: Map<string, KeyEffects>, key: string): KeyEffects {
  const entry = byKey.get(key) ?? { effects: [], calls: [] };
  byKey.set(key, entry);
  return entry;
}

/** The team's applications as per-key effects, the shape the guarantee is checked over (every one is a call that applied). */
export function effectsFromApplications(applications: Iterable<Application>): Map<string, KeyEffects> {
  const byKey = new Map<string, KeyEffects>();
  for (const a of applications) {
    const entry = entryOf(byKey, a.effectKey);
    entry.effects.push({ messageId: a.messageId, appliedAt: a.appliedAt ?? "" });
    entry.calls.push({ messageId: a.messageId, outcome: CallOutcome.Applied, at: a.appliedAt ?? "" });
  }
  return byKey;
}

/**
 * The function's invocations as per-key effects: an invocation that ran the side effect to its end is an application;
 * every invocation is a call. A side effect that can apply and then fail (an invocation recorded `failed` after its
 * write) is counted only by a reader of its own records: pass `applications` for it.
 */
export function effectsFromInvocations(records: Iterable<InvocationRecord>): Map<string, KeyEffects> {
  const byKey = new Map<string, KeyEffects>();
  for (const r of records) {
    const entry = entryOf(byKey, effectKey(r.businessKey, r.operation));
    const applied = invocationApplied(r);
    if (applied) entry.effects.push({ messageId: r.messageId, appliedAt: "" });
    entry.calls.push({ messageId: r.messageId, outcome: applied ? CallOutcome.Applied : r.outcome, at: "" });
  }
  return byKey;
}
