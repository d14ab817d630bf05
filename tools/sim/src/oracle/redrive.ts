/**
 * The model's rules for the operator's redrive (`ops dlq redrive`): it judges each DLQ message by the pipeline's own
 * facts. A producer chooses every message attribute it sends, names included (`reason`, `firstSentTimestamp`, …);
 * it cannot choose SenderId, and the simulation knows each message's first send and descent from its own records
 * (facts/records.ts, RedriveFact). Each rule is named, so a report and its test say which one broke:
 *
 * - redrive-true-age: a message must not look younger to the redrive than it is. Its age rule is what keeps a
 *   redriven copy inside the promise (redrive-safety.ts), so the first send it acts on must be at or before the
 *   message's own; an older one only makes it refuse more (safe).
 * - redrive-true-reason: it acts on the reason the pipeline gave the message (the quarantine's, or retries-exhausted
 *   for a copy the queue moved), never on one a producer wrote: `rejected` earns a longer window.
 * - redrive-true-key: the key it asks the ledger about is the one the message's body names: a completed claim of
 *   another key vouches for nothing.
 * - redrive-true-origin: the message it says it moves is the one the copy descends from.
 */
import type { Observation } from "../scenario/shape";
import type { Verdict, Violation } from "./verdicts";

export const RedriveRule = {
  Age: "redrive-true-age",
  Reason: "redrive-true-reason",
  Key: "redrive-true-key",
  Origin: "redrive-true-origin",
} as const;
export type RedriveRule = (typeof RedriveRule)[keyof typeof RedriveRule];

const when = (ms: number): string => (Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(ms));

export function redriveViolations(obs: Observation, verdicts: readonly Verdict[]): Violation[] {
  const out: Violation[] = [];
  for (const r of obs.redrives ?? []) {
    const sentAt = obs.messages[r.message]?.sentAt;
    const v = verdicts[r.message];
    const key = v?.kind === "valid" ? v.key : undefined;
    const add = (rule: RedriveRule, what: string) => out.push({ message: r.message, key, what: `${rule}: ${what}` });
    if (sentAt !== undefined && r.firstSentAt !== undefined && r.firstSentAt > sentAt) {
      add(RedriveRule.Age, `the redrive moved it as first sent ${when(r.firstSentAt)}, but it was first sent ${when(sentAt)}: a value the producer set made it look younger than it is`);
    }
    if (r.reason !== r.givenReason) add(RedriveRule.Reason, `the redrive moved it as ${r.reason}, but the pipeline gave it ${r.givenReason}`);
    if (key !== undefined && r.businessKey !== undefined && r.businessKey !== key) {
      add(RedriveRule.Key, `the redrive judged it by the ledger's claim of ${JSON.stringify(r.businessKey).slice(0, 120)}, but its body names ${key.slice(0, 120)}`);
    }
    if (r.named !== r.message) add(RedriveRule.Origin, `the redrive reported it as ${r.named === undefined ? "a message the pipeline never saw" : `message #${r.named}`}`);
  }
  return out;
}
