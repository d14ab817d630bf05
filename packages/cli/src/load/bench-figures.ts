import type { BenchFiguresFile } from "../capacity/figures";
import type { BenchResult } from "./bench-report";

/**
 * The per-batch figures `npx effectively-once capacity --figures F` reads, from a bench run. The bench measures no execution
 * time directly: with the queue kept backed up every poller holds one batch, so by Little's law one batch takes
 * pollers ÷ (batches per second) (receive and delete included). Local CPU figures of this machine, not AWS latencies.
 */
export function benchFigures(result: BenchResult): BenchFiguresFile {
  const o = result.options;
  return {
    kind: "pipeline-figures",
    label: `local CPU figures of this machine (npx effectively-once bench, ${result.startedAt}, ${result.host.cpus} cores, ${o.pipeConcurrency} pollers): not AWS latencies`,
    duplicateRatio: o.duplicateRatio,
    cases: result.cases.map((c) => ({
      batchSize: c.batchSize,
      executionMsPerBatch: c.run.throughput > 0 ? (o.pipeConcurrency * c.batchSize * 1000) / c.run.throughput : 0,
      dynamoCallsPerMessage: c.run.dynamoCallsPerMessage,
      throughput: c.run.throughput,
      batchInvocation: c.batchInvocation,
      invocationsPerMessage: c.run.messages > 0 ? c.run.functionInvocations / c.run.messages : 0,
      functionMsPerInvocation: c.run.functionInvocations > 0 ? c.run.functionMs / c.run.functionInvocations : 0,
    })),
  };
}
