/**
 * One invocation per batch (statemachines/src/batch.ts): its own mistakes, and the generic mutants of the batch
 * definition's own states, run under batch settings (BATCH_MUTATE_SETTINGS) against the same budget as the others.
 */
import type { Mutant } from "./mutant";
import { mutantsOf } from "./semantic";
import type { PropsOverrides } from "../settings";

export const BATCH_MUTATE_SETTINGS: PropsOverrides = { batchInvocation: true };

/**
 * The generic mutants (mutants.ts) are written against the per-record definition (one Map, each record's own Invoke):
 * since one invocation per batch is standard mode's default, they run under its opt-out, as FIFO's and the batch's
 * own run under theirs.
 */
export const PER_RECORD_MUTATE_SETTINGS: PropsOverrides = { batchInvocation: false };

/** The states only the batch definition has (the claim phase's end, the one invocation, the settle phase's own). */
const BATCH_STATES = new Set(["Claimed", "InvokeIfClaimed", "InvokeBatch", "WasClaimed", "Decided", "Restore", "Answered"]);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a definition is plain JSON

function settleState(definition: Json, name: string): Json {
  return (definition.States as Json).ProcessBatch.ItemProcessor.States[name] as Json;
}

function change(id: string, description: string, edit: (copy: Json) => void): Mutant {
  return {
    id: `BATCH ProcessBatch/${id}`,
    description: `BATCH ${description}`,
    apply: (definition) => {
      const copy = JSON.parse(JSON.stringify(definition)) as Json;
      edit(copy);
      return copy;
    },
  };
}

/** The mistakes the issue names, and their neighbours. */
function batchMutants(): Mutant[] {
  return [
    change("Answered:complete-unreported", "completes a record the answer did not report (no answer: Complete instead of its own invocation)", (d) => {
      settleState(d, "Answered").Default = "Complete";
    }),
    change("Answered:release-applied", "releases a record the answer reported applied (and retries it)", (d) => {
      const rule = settleState(d, "Answered").Choices[0];
      rule.Next = "Release";
      rule.Assign = { disposition: "retry", detail: "released although applied" };
    }),
    change("Restore:any-answer", "takes the answer at a record's place among the claimed records, whoever it names", (d) => {
      settleState(d, "Restore").Assign.answer = "{% $answers[$count($claims[outcome = 'claimed' and position < $states.input.position])] %}";
    }),
    change("Answered:failure-completes", "completes a record whose answer says it failed", (d) => {
      const rules = settleState(d, "Answered").Choices as Json[];
      rules[rules.length - 1].Next = "Complete";
    }),
  ];
}

/** The batch mutants: the named mistakes, and the generic mutants of the batch definition's own states. */
export function batchMutantSet(definition: Record<string, unknown>): Mutant[] {
  const own = mutantsOf(definition).filter((m) => BATCH_STATES.has(m.id.slice(0, m.id.indexOf(":")).split("/").pop() ?? ""));
  return [...batchMutants(), ...own.map((m) => ({ ...m, id: `BATCH ${m.id}`, description: `BATCH ${m.description}` }))];
}
