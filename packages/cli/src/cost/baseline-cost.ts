import { BaselineWorkflow } from "./assumptions";
import { functionMetricLine } from "./fate-metrics";
import { downstreamLambdaLines, downstreamLogLine, dlqLine, dynamoLines, producerLine, storageLines, sumOver } from "./common-lines";
import { fmt } from "./format";
import type { CostContext } from "./context";
import type { DesignCost } from "./design-cost";
import { chunks, line, Owner, Quantity, Service, sqsPrice, sumUsd, type CostLine } from "./line";
import { BASELINE_PATHS, PATHS } from "./paths";
import { invocationLogBytes } from "./usage";
import { SINGLE_EXECUTION_EVENTS, billedExpressGb, executionLogBytes, expectedBilledMs, pathLatencyMs, pathLogBytes } from "./workflow-metrics";

/**
 * The design this project improves on: the pipe hands one message per execution (batch size 1), a guard Lambda does
 * the conditional write before the side effect, the downstream Lambda runs for new keys. Same tables, same function.
 */
export function baselineCost(ctx: CostContext): DesignCost {
  const { a, book, config } = ctx;
  const b = a.baseline;
  const deliveries = ctx.totalDeliveries;
  const executions = deliveries;
  const acknowledged = sumOver(ctx, BASELINE_PATHS, (p) => (p.acknowledged ? 1 : 0));
  const guards = sumOver(ctx, BASELINE_PATHS, (p) => p.guardInvocations);
  const fn = config.function;

  const lines: CostLine[] = [
    producerLine(ctx),
    line(book, Service.Sqs, "ReceiveMessage (pipe, batch 1)", sqsPrice(config), deliveries * chunks(ctx.recordBytes), Quantity.Requests, `${fmt(deliveries)} receives of one message`),
    line(book, Service.Sqs, "DeleteMessage (pipe)", sqsPrice(config), acknowledged, Quantity.Requests, `${fmt(acknowledged)} acknowledged messages`),
    dlqLine(ctx, BASELINE_PATHS),
    line(book, Service.Pipes, "requests", "pipes.request", deliveries * chunks(ctx.recordBytes), Quantity.Requests, `${fmt(deliveries)} records (one per batch either way)`),
  ];

  let billedMs = 0;
  if (b.workflow === BaselineWorkflow.Standard) {
    const transitions = sumOver(ctx, BASELINE_PATHS, (p) => p.steps.length);
    lines.push(line(book, Service.StepFunctions, "Standard state transitions", "stepfunctions.standard.transition", transitions, Quantity.Transitions, `${fmt(executions)} executions, one transition per state`));
  } else {
    const mix = PATHS.map((path) => ({ share: ctx.deliveries[path], latencyMs: pathLatencyMs(BASELINE_PATHS[path], a) }));
    billedMs = expectedBilledMs(mix, 1, 1, a.sfnStartMs);
    const gbSeconds = executions * (billedMs / 1000) * billedExpressGb(a.sfnMemoryMb);
    lines.push(
      line(book, Service.StepFunctions, "Express requests", "stepfunctions.express.request", executions, Quantity.Requests, "one execution per message"),
      line(book, Service.StepFunctions, "Express duration", "stepfunctions.express.gbSecond", gbSeconds, Quantity.GbSeconds,
        `${fmt(executions)} × ${fmt(billedMs)} ms expected billed × ${billedExpressGb(a.sfnMemoryMb) * 1024} MB`),
    );
  }

  const guardGbSeconds = guards * (b.guardMemoryMb / 1024) * (Math.ceil(b.guardMs) / 1000);
  const guardLogBytes = guards * invocationLogBytes(fn, b.guardInfoLines, b.guardLogLineBytes, null, a);
  const level = config.stateMachine.logLevel;
  const sfnLogBytes =
    sumOver(ctx, BASELINE_PATHS, (p) => pathLogBytes(p, level, false, config.stateMachine.includeExecutionData, a)) +
    executions * executionLogBytes(level, SINGLE_EXECUTION_EVENTS, a);

  // One execution per message: the function gets one record per invocation whatever the stack's mode.
  const { batchInvocation: _batch, ...stateMachine } = config.stateMachine;
  const perMessage = { ...ctx, config: { ...config, stateMachine } };
  lines.push(
    ...dynamoLines(ctx, BASELINE_PATHS),
    ...storageLines(ctx),
    line(book, Service.Lambda, "guard requests", "lambda.request", guards, Quantity.Requests, `${fmt(guards)} invocations (every delivery)`),
    line(book, Service.Lambda, `guard duration (${fn.architecture})`, fn.architecture === "arm64" ? "lambda.arm64.gbSecond" : "lambda.x86_64.gbSecond", guardGbSeconds, Quantity.GbSeconds,
      `${fmt(guards)} × ${b.guardMemoryMb} MB × ${Math.ceil(b.guardMs)} ms`),
    ...downstreamLambdaLines(perMessage, BASELINE_PATHS),
    line(book, Service.Logs, `guard logs (${fn.applicationLogLevel})`, "logs.ingestion", guardLogBytes, Quantity.Bytes, `${fmt(guards)} invocations`),
    downstreamLogLine(perMessage, BASELINE_PATHS),
    functionMetricLine(perMessage, BASELINE_PATHS),
    line(book, Service.Logs, `state machine logs (${level})`, "logs.ingestion", sfnLogBytes, Quantity.Bytes, level === "ERROR" ? "no caught task failures: the guard returns a decision" : `events at ${level}`),
  );
  if (config.stateMachine.tracing) {
    lines.push(line(book, Service.XRay, "traces recorded", "xray.trace", executions * a.xraySampleRate, Quantity.Traces, `${fmt(executions)} executions × ${a.xraySampleRate} sampled`));
  }
  const name = `Lambda guard, one ${b.workflow === BaselineWorkflow.Standard ? "Standard" : "Express"} execution per message`;
  return { design: name, lines, totalUsd: sumUsd(lines), pipelineUsd: sumUsd(lines, Owner.Pipeline), sideEffectUsd: sumUsd(lines, Owner.SideEffect), executions, deliveries, billedMsPerExecution: billedMs };
}
