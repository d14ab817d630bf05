/**
 * What one `verify --target aws` run costs, itemised with the cost model's list prices (packages/cli/src/cost/prices), from
 * the deploy to the teardown: the probes' requests, executions, invocations, writes and logs, and the stack's
 * monthly items (alarms, dashboard) for the hours it exists. Counts are the probes' own (a few messages each);
 * the pipe's polling is the one guess, and is stated.
 */
import { loadPriceBook, unitPrice, type PriceBook, type PriceId } from "../cost/prices";
import type { ProbeStack } from "./probe-stack";
import type { Probe } from "./types";

export interface CostItem {
  readonly what: string;
  readonly quantity: number;
  readonly unit: string;
  readonly usd: number;
}

export interface CostEstimate {
  readonly items: readonly CostItem[];
  readonly totalUsd: number;
  readonly minutes: number;
  readonly pricesTakenOn: string;
  /** What is not priced, and why. */
  readonly unpriced: readonly string[];
}

/** Deliveries through the pipe each stack probe causes, and how many of those invoke the function. */
const PIPE_DELIVERIES: Readonly<Record<string, { deliveries: number; invocations: number; writes: number; reads: number }>> = {
  "record-serialization": { deliveries: 1, invocations: 1, writes: 4, reads: 0 },
  "message-attributes": { deliveries: 1, invocations: 1, writes: 4, reads: 0 },
  "same-key-batches": { deliveries: 2, invocations: 1, writes: 5, reads: 2 },
  "message-move": { deliveries: 1, invocations: 1, writes: 4, reads: 0 },
  "failed-record-return": { deliveries: 2, invocations: 2, writes: 8, reads: 0 },
  // A body that is not JSON: quarantined before any ledger call.
  "alarm-after-quarantine": { deliveries: 1, invocations: 0, writes: 0, reads: 0 },
};
/** Accepted StartSyncExecution calls of the limit probe (the refused ones start nothing). */
const SYNC_STARTS = 3;
/** The alarm probe's longest wait for CloudWatch to evaluate the DLQ's metrics. */
const ALARM_WAIT_MINUTES = 10;
/** Minutes of deploy, probes and teardown besides waiting for the failed record. */
const FIXED_MINUTES = 20;
/** The pipe's own long polls (20 s each) while the stack exists: Pipes bills them to the account as SQS requests. */
const PIPE_POLLS_PER_MINUTE = 5 * 3;
const HOURS_PER_MONTH = 730;

export function estimateCost(stack: ProbeStack, probes: readonly Probe[], book: PriceBook = loadPriceBook()): CostEstimate {
  const ids = new Set(probes.map((p) => p.id));
  const pick = (field: "deliveries" | "invocations" | "writes" | "reads") => Object.entries(PIPE_DELIVERIES).reduce((sum, [id, d]) => sum + (ids.has(id) ? d[field] : 0), 0);
  const starts = (ids.has("sync-input-limit") ? SYNC_STARTS : 0) + pick("deliveries");
  const minutes = FIXED_MINUTES + (ids.has("failed-record-return") ? Math.ceil(stack.visibilityTimeoutSeconds / 60) : 0) + (ids.has("alarm-after-quarantine") ? ALARM_WAIT_MINUTES : 0);
  const fn = Object.values(stack.stack.resources.aws_lambda_function ?? {})[0] as { memory_size?: number; architectures?: string[] } | undefined;
  const memoryGb = (fn?.memory_size ?? 128) / 1024;
  const arch = fn?.architectures?.includes("x86_64") ? "lambda.x86_64.gbSecond" : "lambda.arm64.gbSecond";
  const calls = probes.filter((p) => p.needsStack).flatMap((p) => p.calls(stack));
  const sqsCalls = calls.filter((c) => c.service === "SQS").reduce((s, c) => s + c.count, 0) + pick("deliveries") * 2;
  const alarms = Object.keys(stack.stack.resources.aws_cloudwatch_metric_alarm ?? {}).length;
  const dashboards = Object.keys(stack.stack.resources.aws_cloudwatch_dashboard ?? {}).length;
  // The limit probe's inputs are logged up to CloudWatch's event size; every other execution logs a few KB.
  const logBytes = (ids.has("sync-input-limit") ? SYNC_STARTS * 262_144 : 0) + starts * 4_096 + pick("invocations") * 2_048;
  const line = (what: string, quantity: number, unit: string, id: PriceId, per = 1): CostItem => ({ what, quantity, unit, usd: quantity * per * unitPrice(book, id) });
  const items: CostItem[] = [
    line("SQS requests: the probes' sends, receives and moves, and the pipe's receives and deletes", sqsCalls, "requests", "sqs.request"),
    line(`SQS requests: the pipe's long polls for about ${minutes} minutes (a guess: 5 pollers, 3 polls a minute each)`, PIPE_POLLS_PER_MINUTE * minutes, "requests", "sqs.request"),
    line("EventBridge Pipes events", pick("deliveries"), "events", "pipes.request"),
    line("Step Functions Express executions", starts, "executions", "stepfunctions.express.request"),
    line("Step Functions Express duration (64 MB, 1 s each at most)", starts, "executions", "stepfunctions.express.gbSecond", 0.0625),
    line("Lambda invocations", pick("invocations"), "invocations", "lambda.request"),
    line(`Lambda duration (${fn?.memory_size ?? 128} MB, 1 s each at most)`, pick("invocations"), "invocations", arch, memoryGb),
    line("DynamoDB writes (claims, completions, Powertools records)", pick("writes"), "write units", "dynamodb.write"),
    line("DynamoDB reads (inspections, the probe's ledger read)", pick("reads") + 1, "read units", "dynamodb.read"),
    line("CloudWatch Logs ingested (execution inputs, the function's lines)", logBytes, "bytes", "logs.ingestion"),
    line("X-Ray traces", starts + pick("invocations"), "traces", "xray.trace"),
    line(`CloudWatch alarms (${alarms}) for about ${minutes} minutes`, alarms, "alarms", "cloudwatch.alarm", minutes / 60 / HOURS_PER_MONTH),
    line(`CloudWatch dashboards (${dashboards}) for about ${minutes} minutes`, dashboards, "dashboards", "cloudwatch.dashboard", minutes / 60 / HOURS_PER_MONTH),
  ];
  return {
    items,
    totalUsd: items.reduce((s, i) => s + i.usd, 0),
    minutes,
    pricesTakenOn: book.takenOn,
    unpriced: [
      "TestState calls (17): not in the price book; they run no execution",
      "DescribeAlarms reads (the alarm probe's, at most 11): CloudWatch's first million API requests a month are free",
      "FilterLogEvents reads: not in the price book",
      "terraform's create, read and delete calls (deploy, re-plan, teardown): AWS bills none of them",
      "after the teardown nothing is left: the log groups, tables and queues are the probe stack's own and are destroyed with it",
    ],
  };
}
