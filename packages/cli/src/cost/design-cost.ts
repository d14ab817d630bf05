import { functionMetricLine, workflowFateLines } from "./fate-metrics";
import { downstreamLambdaLines, downstreamLogLine, dlqLine, dynamoLines, producerLine, storageLines, sumOver } from "./common-lines";
import { fmt } from "./format";
import type { CostContext } from "./context";
import { chunks, line, Owner, Quantity, Service, sqsPrice, sumUsd, type CostLine } from "./line";
import { DESIGN_PATHS, Path, PATHS } from "./paths";
import { PipesBilling } from "./assumptions";
import { BATCH_EXECUTION_EVENTS, billedExpressGb, executionLogBytes, expectedBilledMs, pathLatencyMs, pathLogBytes } from "./workflow-metrics";

export interface DesignCost {
  readonly design: string;
  readonly lines: readonly CostLine[];
  readonly totalUsd: number;
  /** The pipeline's own cost: every line but the side effect's. */
  readonly pipelineUsd: number;
  /** The example's side effect (effects table, the function's own requests and work): the same in both designs. */
  readonly sideEffectUsd: number;
  readonly executions: number;
  readonly deliveries: number;
  /** Expected billed duration of one execution, ms. */
  readonly billedMsPerExecution: number;
}

/** This design: a pipe hands batches of `batchSize` records to one Express execution that guards each record itself. */
export function designCost(ctx: CostContext): DesignCost {
  const { a, book, config, scenario } = ctx;
  const batch = scenario.batchSize;
  const deliveries = ctx.totalDeliveries;
  const executions = deliveries / batch;
  const retryShare = deliveries > 0 ? ctx.deliveries[Path.Retry] / deliveries : 0;

  // SQS: one ReceiveMessage per batch (batch ≤ 10 = one receive), one DeleteMessageBatch per batch with any acknowledged record.
  const perReceive = chunks(batch * ctx.recordBytes);
  const deletes = executions * (1 - retryShare ** batch);
  const pipesRequests = a.pipesBilling === PipesBilling.Batch ? executions * chunks(batch * ctx.recordBytes) : deliveries * chunks(ctx.recordBytes);

  const mix = PATHS.map((path) => ({ share: ctx.deliveries[path], latencyMs: pathLatencyMs(DESIGN_PATHS[path], a) }));
  const billedMs = expectedBilledMs(mix, batch, Math.min(config.stateMachine.maxConcurrency, batch), a.sfnStartMs);
  const gbSeconds = executions * (billedMs / 1000) * billedExpressGb(a.sfnMemoryMb);

  const level = config.stateMachine.logLevel;
  const sfnLogBytes =
    sumOver(ctx, DESIGN_PATHS, (p) => pathLogBytes(p, level, true, config.stateMachine.includeExecutionData, a)) +
    executions * executionLogBytes(level, BATCH_EXECUTION_EVENTS, a);

  const lines: CostLine[] = [
    producerLine(ctx),
    line(book, Service.Sqs, "ReceiveMessage (pipe)", sqsPrice(config), executions * perReceive, Quantity.Requests, `${fmt(executions)} batches of ${batch} × ${perReceive} chunk(s)`),
    line(book, Service.Sqs, "DeleteMessageBatch (pipe)", sqsPrice(config), deletes, Quantity.Requests, `one per batch with an acknowledged record`),
    dlqLine(ctx, DESIGN_PATHS),
    line(book, Service.Pipes, `requests (${a.pipesBilling})`, "pipes.request", pipesRequests, Quantity.Requests,
      a.pipesBilling === PipesBilling.Batch ? `${fmt(executions)} batches × 64 KB chunks` : `${fmt(deliveries)} records × ${chunks(ctx.recordBytes)} chunk(s)`),
    line(book, Service.StepFunctions, "Express requests", "stepfunctions.express.request", executions, Quantity.Requests, `${fmt(deliveries)} records / ${batch} per execution`),
    line(book, Service.StepFunctions, "Express duration", "stepfunctions.express.gbSecond", gbSeconds, Quantity.GbSeconds,
      `${fmt(executions)} × ${fmt(billedMs)} ms expected billed × ${billedExpressGb(a.sfnMemoryMb) * 1024} MB`),
    ...dynamoLines(ctx, DESIGN_PATHS),
    ...storageLines(ctx),
    ...downstreamLambdaLines(ctx, DESIGN_PATHS),
    downstreamLogLine(ctx, DESIGN_PATHS),
    functionMetricLine(ctx, DESIGN_PATHS),
    ...workflowFateLines(ctx, executions),
    line(book, Service.Logs, `state machine logs (${level})`, "logs.ingestion", sfnLogBytes, Quantity.Bytes,
      level === "ERROR" ? "ERROR logs each caught TaskFailed (claims that lose: duplicates, retries, mismatches)" : `events at ${level}`),
  ];
  if (config.stateMachine.tracing) {
    lines.push(line(book, Service.XRay, "traces recorded", "xray.trace", executions * a.xraySampleRate, Quantity.Traces, `${fmt(executions)} executions × ${a.xraySampleRate} sampled`));
  }
  return { design: "this design", lines, totalUsd: sumUsd(lines), pipelineUsd: sumUsd(lines, Owner.Pipeline), sideEffectUsd: sumUsd(lines, Owner.SideEffect), executions, deliveries, billedMsPerExecution: billedMs };
}
