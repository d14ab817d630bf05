/**
 * Mutants of FIFO mode's state machine that break a message group's order or its last receive, each one plausible
 * mistake (statemachines/src/fifo.ts). `npm run mutate` runs them, with the generic mutants of the FIFO definition's own
 * states, under FIFO settings (FIFO_MUTATE_SETTINGS) against the same budget as the standard ones.
 */
import type { Mutant } from "./mutant";
import type { PropsOverrides } from "./settings";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a definition is plain JSON

/**
 * FIFO settings the FIFO mutants run under: batches of 4 (a group's records meet in one batch), kept within EXPRESS's
 * 300 s one after another by a short function timeout and no Lambda service-error retries.
 */
export const FIFO_MUTATE_SETTINGS: PropsOverrides = { fifo: true, batchSize: 4, lambdaRetries: 0, function: { timeoutSeconds: 3 }, executionTimeoutSeconds: 270 };

const copy = (d: Json): Json => JSON.parse(JSON.stringify(d)) as Json;
const record = (d: Json): Json => d.States.ProcessBatch.ItemProcessor.States;

export function fifoMutants(): Mutant[] {
  return [
    {
      id: "FIFO:group-records-in-parallel",
      description: "FIFO: every record its own group (a group's later records run beside its earlier ones)",
      apply: (d) => {
        const m = copy(d);
        m.States.GroupDuplicates.Assign.groups = "{% [$map([0..$count($states.input) - 1], function($i) { { 'positions': [$i] } })] %}";
        return m;
      },
    },
    {
      id: "FIFO:no-hold",
      description: "FIFO: a record to retry does not hold its group (the later records run on)",
      apply: (d) => {
        const m = copy(d);
        record(m).GroupNext.Choices.splice(0, 1);
        return m;
      },
    },
    {
      id: "FIFO:reverse-order",
      description: "FIFO: a group's records in reverse batch order",
      apply: (d) => {
        const m = copy(d);
        record(m).StartGroup.Assign.positions = "{% $reverse($states.input.positions) %}";
        return m;
      },
    },
    {
      id: "FIFO:hold-next-only",
      description: "FIFO: a record to retry holds only the next record of its group, the rest acknowledged unprocessed",
      apply: (d) => {
        const m = copy(d);
        const hold = record(m).HoldRest;
        hold.Output = String(hold.Output).replace("$i >= $cursor", "$i = $cursor");
        return m;
      },
    },
    {
      id: "FIFO:held-as-processed",
      description: "FIFO: the held records reported processed (the pipe deletes them unprocessed)",
      apply: (d) => {
        const m = copy(d);
        const hold = record(m).HoldRest;
        hold.Output = String(hold.Output).replace("'outcome': 'retry'", "'outcome': 'processed'");
        return m;
      },
    },
    {
      id: "FIFO:last-receive-retried",
      description: "FIFO: a record to retry on its last receive handed back (SQS moves it and its group's held records to the DLQ)",
      apply: (d) => {
        const m = copy(d);
        record(m).LastReceive.Choices = [{ Condition: "{% false %}", Next: "Quarantine" }];
        return m;
      },
    },
  ];
}
