/**
 * Mutants of the rules that keep SQS's own paths back from the DLQ safe (docs/guarantees.md, "paths back from the
 * DLQ"), each one plausible mistake: the workflow's recognition of a moved-back copy (the `Recognise` state), the
 * source queue's RedriveAllowPolicy, the pipe's pattern for quarantined copies, and all three dropped at once (the
 * rules of a48d984, where the review found its four histories). `npm run mutate` runs them, with the generic mutants of
 * `Recognise`, also in the `redrive-paths` focused space (fuzz/focus.ts), where such copies come back around a key's memory,
 * in standard and FIFO mode, under a filter on a message attribute or none.
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

/** Leaves the definition alone: the mutant changes only what the construct writes beside it. */
const construct = (id: string, description: string, mutation: NonNullable<Mutant["construct"]>): Mutant => ({ id, description, apply: (d) => d, construct: mutation });

const unread = (states: Json): void => {
  states.Parse.Assign.returned = false;
};

export function redrivePathMutants(messageRetentionSeconds: number, retentionSeconds: number): Mutant[] {
  return [
    mutant("ProcessBatch/Recognise:markers-unread", "Recognise: the quarantine's attributes never read (a moved-back copy is a fresh message)", unread),
    condition(
      "ProcessBatch/Recognise:limit-is-ledger-retention",
      "Recognise: a moved-back copy applied while its first send is within the ledger's retention, not the source queue's",
      String(messageRetentionSeconds * 1000),
      String(retentionSeconds * 1000),
    ),
    construct("Queues/RedriveAllowPolicy:source-allows-all", "the source queue without RedriveAllowPolicy denyAll: the DLQ may name it as its own DLQ", { sourceRedriveAllowPolicy: false }),
    construct("Pipe/Filter:quarantined-copies-dropped", "the pipe's filter is the stack's patterns alone: a quarantined copy moved back is dropped by an attribute filter", { quarantinedCopyPattern: false }),
    {
      ...mutant("Rules/a48d984:every-path-open", "a48d984's rules: no RedriveAllowPolicy, the stack's filter alone, the quarantine's attributes never read", unread),
      construct: { sourceRedriveAllowPolicy: false, quarantinedCopyPattern: false },
    },
  ];
}
