/**
 * Mutants of FIFO mode's state machine that break a message group's order or its last receive, each one plausible
 * mistake (statemachines/src/fifo.ts). `npm run mutate` runs them, with the generic mutants of the FIFO definition's own
 * states, under FIFO settings (FIFO_MUTATE_SETTINGS) against the same budget as the standard ones.
 */
import type { Mutant } from "./mutant";
import type { PropsOverrides } from "../settings";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a definition is plain JSON

/**
 * FIFO settings the FIFO mutants run under: batches of 4 (a group's records meet in one batch), kept within EXPRESS's
 * 300 s one after another by a short function timeout and no Lambda service-error retries.
 */
export const FIFO_MUTATE_SETTINGS: PropsOverrides = { fifo: true, batchSize: 4, lambdaRetries: 0, function: { timeoutSeconds: 3 }, executionTimeoutSeconds: 270 };

const record = (d: Json): Json => d.States.ProcessBatch.ItemProcessor.States;

/** A mutant that changes a copy of the definition in place. */
const mutant = (id: string, description: string, change: (m: Json) => void): Mutant => ({
  id,
  description,
  apply: (d) => {
    const m = JSON.parse(JSON.stringify(d)) as Json;
    change(m);
    return m;
  },
});

/** A mutant that rewrites part of the HoldRest state's Output (what a record to retry does to the rest of its group). */
const holdRest = (id: string, description: string, from: string, to: string): Mutant =>
  mutant(id, description, (m) => {
    const hold = record(m).HoldRest;
    if (!String(hold.Output).includes(from)) throw new Error(`${id}: HoldRest's Output has no "${from}" (the FIFO definition changed; update the mutant)`);
    hold.Output = String(hold.Output).replace(from, to);
  });

export function fifoMutants(): Mutant[] {
  return [
    mutant("FIFO:group-records-in-parallel", "FIFO: every record its own group (a group's later records run beside its earlier ones)", (m) => {
      m.States.GroupDuplicates.Assign.groups = "{% [$map([0..$count($states.input) - 1], function($i) { { 'positions': [$i] } })] %}";
    }),
    mutant("FIFO:no-hold", "FIFO: a record to retry does not hold its group (the later records run on)", (m) => {
      record(m).GroupNext.Choices.splice(0, 1);
    }),
    mutant("FIFO:reverse-order", "FIFO: a group's records in reverse batch order", (m) => {
      record(m).StartGroup.Assign.positions = "{% $reverse($states.input.positions) %}";
    }),
    holdRest("FIFO:hold-next-only", "FIFO: a record to retry holds only the next record of its group, the rest acknowledged unprocessed", "$i >= $cursor", "$i = $cursor"),
    holdRest("FIFO:held-as-processed", "FIFO: the held records reported processed (the pipe deletes them unprocessed)", "'outcome': 'retry'", "'outcome': 'processed'"),
    mutant("FIFO:last-receive-retried", "FIFO: a record to retry on its last receive handed back (SQS moves it and its group's held records to the DLQ)", (m) => {
      record(m).LastReceive.Choices = [{ Condition: "{% false %}", Next: "Quarantine" }];
    }),
  ];
}
