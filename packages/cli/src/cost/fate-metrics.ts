import { DlqReason, FUNCTION_FATE_METRICS, WORKFLOW_FATE_METRICS } from "@effectively-once/contract";
import type { CostContext } from "./context";
import { fmt } from "./format";
import { line, Owner, Quantity, Service, type CostLine } from "./line";
import { Path, type PathProfile } from "./paths";
import { downstreamInvocations, sumOver } from "./common-lines";
import { pathLogBytes } from "./workflow-metrics";
import { StateMachineLogLevel } from "./types";
import { unitPrice } from "./prices";

/**
 * What counting the pipeline's fates costs. The function's fates (applied with send-to-effect time, second-layer
 * duplicates) ride on its one invocation line as Powertools Metrics' EMF fields: log bytes, no request
 * (functions/src/metrics.ts). Each metric is a custom metric, billed per month whatever the traffic (fixed-costs.ts).
 */

type Paths = Readonly<Record<Path, PathProfile>>;

/** Levels at which the function writes its invocation line, which then carries the metrics (pipeline-handler.ts). */
const LINE_LEVELS: ReadonlySet<string> = new Set(["TRACE", "DEBUG", "INFO"]);

/**
 * The EMF fields on the invocation line of every function invocation that counted a fate (both designs run it). A
 * batch invocation (batchInvocation) writes one EMF document on its summary line: the directive once, each record's
 * values in the metrics' lists.
 */
export function functionMetricLine(ctx: CostContext, paths: Paths): CostLine {
  const { records, invocations } = downstreamInvocations(ctx, paths);
  // Above INFO the invocation line is not written, and the metrics go out as a line of their own: braces, the service
  // key (at most as long as the function's name), the level and RFC 3339 timestamp Lambda's log-level filter needs to
  // keep it (functions/src/metrics.ts, OwnLine) and the event's overhead on top.
  const level = ctx.config.function.applicationLogLevel.toUpperCase();
  const onLine = LINE_LEVELS.has(level);
  const fn = ctx.config.function.name;
  const own = `{"service":"${fn}","level":"${level}","timestamp":"${new Date(0).toISOString()}"}`;
  const bytes = onLine ? ctx.a.functionMetricBytes : ctx.a.functionMetricBytes + Buffer.byteLength(own) + ctx.a.logEventOverheadBytes;
  const where = `EMF ${onLine ? "on its line" : "line of its own"}`;
  const metrics = `${FUNCTION_FATE_METRICS.length} custom metrics, monthly`;
  if (invocations === records) {
    return line(ctx.book, Service.Logs, `${fn} fate metrics (${where})`, "logs.ingestion", invocations * bytes, Quantity.Bytes,
      `${fmt(invocations)} invocations × ${bytes} B (Applied, SendToEffectMs); ${metrics}`, Owner.Pipeline);
  }
  const perRecord = ctx.a.batchMetricRecordBytes;
  return line(ctx.book, Service.Logs, `${fn} fate metrics (${where}, one document a batch)`, "logs.ingestion", invocations * bytes + records * perRecord, Quantity.Bytes,
    `${fmt(invocations)} batch invocations × ${bytes} B + ${fmt(records)} records × ${perRecord} B of values (Applied, SendToEffectMs); ${metrics}`, Owner.Pipeline);
}

/**
 * Custom metrics the stack publishes (one `service` value per stack): the function's, the workflow's by `service`, and
 * `Quarantined` once per reason (every DlqReason: an upper bound, a reason that never occurs is never billed).
 */
export function customMetricCount(): number {
  const workflow = WORKFLOW_FATE_METRICS.reduce((n, m) => n + (m.byReason ? Object.values(DlqReason).length : 1), 0);
  return FUNCTION_FATE_METRICS.length + workflow;
}

/**
 * The workflow's own fates, as built (statemachines/src/fate-count.ts): one PutLogEvents per execution with a
 * workflow-decided fate (a batch of new keys only makes none): its EMF events ingested (no request price), and the
 * Task's time in the Express execution (priced without the 100 ms rounding).
 */
function workflowPutLogEvents(ctx: CostContext, executions: number): { batches: number; bytes: number; gbSeconds: number } {
  const { a } = ctx;
  const newKeyShare = ctx.totalDeliveries > 0 ? ctx.deliveries[Path.NewKey] / ctx.totalDeliveries : 1;
  const batches = executions * (1 - newKeyShare ** ctx.scenario.batchSize);
  return { batches, bytes: batches * (a.workflowFateEventBytes + a.logEventOverheadBytes), gbSeconds: batches * (a.sfnSqsMs / 1000) * (a.sfnMemoryMb / 1024) };
}

/** The line items of the workflow's fate metrics (this design only: the guard's function decides every fate itself). */
export function workflowFateLines(ctx: CostContext, executions: number): CostLine[] {
  const { batches, bytes, gbSeconds } = workflowPutLogEvents(ctx, executions);
  const perBatch = ctx.a.workflowFateEventBytes + ctx.a.logEventOverheadBytes;
  return [
    line(ctx.book, Service.Logs, "workflow fate metrics (EMF by PutLogEvents)", "logs.ingestion", bytes, Quantity.Bytes,
      `${fmt(batches)} batches with a duplicate, quarantine or retry × ${perBatch} B (PutLogEvents has no request price); ${customMetricCount()} custom metrics in all, monthly`),
    line(ctx.book, Service.StepFunctions, "workflow fate metrics (the PutLogEvents Task's Express time)", "stepfunctions.express.gbSecond", gbSeconds, Quantity.GbSeconds,
      `${fmt(batches)} Tasks × ${ctx.a.sfnSqsMs} ms × ${ctx.a.sfnMemoryMb} MB`),
  ];
}

/** A way to count what the workflow decides without the function (ledger duplicates, quarantines, retries). */
export interface FateChannel {
  readonly channel: string;
  readonly usd: number;
  readonly byReason: boolean;
  readonly detail: string;
}

/**
 * The AWS-native candidates, priced on the scenario. Both per-batch calls run only in executions with a
 * workflow-decided fate (a batch of new keys only needs none) and add one Task to them (Express duration, priced
 * without the 100 ms rounding).
 */
export function workflowFateChannels(ctx: CostContext, paths: Paths, executions: number): FateChannel[] {
  const { a, book, config } = ctx;
  const chosen = workflowPutLogEvents(ctx, executions);
  const batches = chosen.batches;
  const duration = chosen.gbSeconds * unitPrice(book, "stepfunctions.express.gbSecond");
  const level = config.stateMachine.logLevel;
  const allBytes = sumOver(ctx, paths, (p) => pathLogBytes(p, StateMachineLogLevel.All, true, false, a) - pathLogBytes(p, level, true, false, a));
  return [
    {
      channel: "aws-sdk:cloudwatchlogs:putLogEvents, one call of EMF events per batch (built)",
      usd: chosen.bytes * unitPrice(book, "logs.ingestion") + duration,
      byReason: true,
      detail: `${fmt(batches)} batches with such a fate × ${a.workflowFateEventBytes} B ingested; PutLogEvents has no request price; + one Task`,
    },
    {
      channel: "aws-sdk:cloudwatch:putMetricData, one call per batch",
      usd: batches * unitPrice(book, "cloudwatch.request") + duration,
      byReason: true,
      detail: `${fmt(batches)} requests at $0.01 per 1,000; + one Task`,
    },
    {
      channel: `state machine log level ALL + metric filters (from ${level})`,
      usd: allBytes * unitPrice(book, "logs.ingestion"),
      byReason: false,
      detail: "every state's events; without execution data a filter sees state names (Duplicate, RetryLater, Quarantine), not reasons",
    },
  ];
}
