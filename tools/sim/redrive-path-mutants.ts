/**
 * Mutants of the workflow's recognition of a quarantined copy SQS moved back (the `Recognise` state: docs/guarantees.md,
 * "paths back from the DLQ"), each one plausible mistake. `npm run mutate` runs them, with the generic mutants of the
 * state, also in the `redrive-paths` focused space (focus.ts), where such copies come back around a key's memory.
 */
import type { Mutant } from "./mutant";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a definition is plain JSON

const recordStates = (d: Json): Json => d.States.ProcessBatch.ItemProcessor.States;

const mutant = (id: string, description: string, change: (states: Json) => void): Mutant => ({
  id,
  description,
  apply: (d) => {
    const copy = JSON.parse(JSON.stringify(d)) as Json;
    change(recordStates(copy));
    return copy;
  },
});

/** Replaces `from` with `to` in the Recognise rule's condition, loudly when the text is gone (the definition changed). */
const condition = (id: string, description: string, from: string, to: string): Mutant =>
  mutant(id, description, (states) => {
    const rule = states.Recognise.Choices[0];
    if (!String(rule.Condition).includes(from)) throw new Error(`${id}: Recognise's condition has no "${from}" (update the mutant)`);
    rule.Condition = String(rule.Condition).replace(from, to);
  });

export function redrivePathMutants(messageRetentionSeconds: number, retentionSeconds: number): Mutant[] {
  return [
    mutant("ProcessBatch/Recognise:markers-unread", "Recognise: the quarantine's attributes never read (a moved-back copy is a fresh message)", (states) => {
      states.Parse.Assign.returned = false;
    }),
    condition(
      "ProcessBatch/Recognise:limit-is-ledger-retention",
      "Recognise: a moved-back copy applied while its first send is within the ledger's retention, not the source queue's",
      String(messageRetentionSeconds * 1000),
      String(retentionSeconds * 1000),
    ),
  ];
}
