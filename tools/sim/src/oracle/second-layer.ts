/**
 * The second layer's promise (docs/guarantees.md, "The ledger lost an applied key"): once the function has answered
 * a key, its own record of it answers every later run of that key for the retention, whatever happened to the
 * ledger (a takeover, a failed Complete, an operator's release) and whatever a deploy renamed. The model reads it
 * from the run alone, never from how the record is stored:
 *
 * - the key's record certainly exists from the end of the first invocation of the key that returned normally (the
 *   function answered it: Powertools completed a record before returning);
 * - it lives the retention from its completion, which came no earlier than the first invocation of the key that
 *   reached the handler.
 *
 * Within that span a run that reaches the handler must be answered from the record: its side effect must not run.
 * The downstream's own idempotency (the example's journal) would hide such a run from the charges, so the model
 * counts the side effect's runs, not the charges. A rollback to the previous release (function/deploys.ts) starts the
 * record's span again: that release's function honours none of the records written before it. Not for a copy
 * `ops dlq redrive` moved on a witness's word (`movedOnAWitness`): ops must count only what the deployed function honours.
 */
import type { Observation } from "../scenario/shape";
import type { Violation } from "./verdicts";

/** Rounding of Powertools' expiry (whole seconds) and of the record's completion within its invocation. */
const EXPIRY_SLACK_MS = 1000;

/**
 * Whether `ops dlq redrive` moved this message's copy after `after` although the age rule alone would not have let it
 * (first sent more than the source queue's retention before the redrive): it moved on what ops took for a witness.
 */
export function movedOnAWitness(obs: Observation, message: number, after: number, queueRetentionMs: number): boolean {
  return (obs.redrives ?? []).some((r) => r.message === message && r.at > after && r.at - (r.firstSentAt ?? 0) > queueRetentionMs);
}

export function secondLayerViolations(obs: Observation, retentionMs: number, queueRetentionMs: number): Violation[] {
  const out: Violation[] = [];
  const runs = obs.sideEffects ?? [];
  if (runs.length === 0) return out;
  const rollbacks = obs.rollbacks ?? [];
  // The deploy a moment belongs to: what the function honours was written since the last rollback before it.
  const since = (at: number): number => Math.max(Number.NEGATIVE_INFINITY, ...rollbacks.filter((r) => r <= at));
  for (const key of new Set(runs.flatMap((r) => (r.key === undefined ? [] : [r.key])))) {
    for (const run of runs) {
      if (run.key !== key) continue;
      const start = movedOnAWitness(obs, run.message, Number.NEGATIVE_INFINITY, queueRetentionMs) ? Number.NEGATIVE_INFINITY : since(run.runStartedAt);
      const answered = obs.invocations.filter((inv) => inv.key === key && inv.ok && inv.startedAt >= start).map((inv) => inv.endedAt);
      if (answered.length === 0) continue;
      const from = Math.min(...answered);
      // The earliest the record can have been completed: no earlier than the key's first run (of this deploy) that reached the handler.
      const firstRun = Math.min(...runs.filter((r) => r.key === key && r.runStartedAt >= start).map((r) => r.runStartedAt), ...obs.invocations.filter((inv) => inv.key === key && inv.startedAt >= start).map((inv) => inv.startedAt));
      const until = firstRun + retentionMs - EXPIRY_SLACK_MS;
      if (run.runStartedAt <= from || run.runStartedAt >= until) continue;
      out.push({
        message: run.message,
        key,
        what:
          `the side effect ran again for a key the second layer had answered ${Math.round((run.runStartedAt - from) / 1000)} s before ` +
          "(its record must answer every run of the key for the retention, whatever the ledger lost or a deploy renamed)",
      });
    }
  }
  return out;
}
