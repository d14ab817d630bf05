/**
 * The alarms of the pipe, the workflow, the function and the tables: "the pipeline is broken" (failures, throttles,
 * time running out), never "the business refused a message". A `PermanentError` or `ConflictError`, or an error named
 * in `function.permanentErrors` / `conflictErrors` (the function learns those names: function-variables.ts), is a
 * quarantine as designed. `function-errors` counts the function's failures through Lambda's `Errors` and two metric
 * filters on its log group (alarms.ts) over its own error lines' `outcome` and `functionError`
 * (functions/src/invocation-log.ts):
 * - a single-record invocation throws a rejection too (the workflow's Catch routes on its name), so Lambda counts it
 *   in `Errors`: the rejections whose line says `functionError: true` are subtracted;
 * - a batch answers its records without throwing: Lambda counts no error for a rejected record (none is subtracted)
 *   nor for a record's transient failure, so the `failed` lines without `functionError` are added.
 * What remains is a failure: a transient error, a timeout, a crash, of an invocation or of one record of a batch.
 * No FILL: CloudWatch's arithmetic already counts a missing value as 0 beside a present one, and FILL would put a 0
 * into the newest minute before its late data arrive, which can keep the alarm in OK (User Guide, "Using metric
 * math", FILL: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html).
 */
import { durationThresholdMs } from "./alarm-thresholds";
import { OPS, type AlarmQuery, type AlarmSpec, type MetricStat } from "./alarm-spec";
import type { ResolvedPipelineProps } from "./props";

/** The names the compute alarms read, as Terraform references. */
export interface ComputeRefs {
  readonly stateMachineArn: string;
  readonly functionName: string;
  readonly pipeName: string;
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  /** Where the function's log group's metric filter counts the rejections Lambda counted in `Errors`. */
  readonly rejected: { readonly namespace: string; readonly metricName: string };
  /** Where another counts the transient failures of batch records, which Lambda did not count. */
  readonly batchFailed: { readonly namespace: string; readonly metricName: string };
}

/** The item operations the workflow (ledger) and Powertools (idempotency table) call: SystemErrors is per operation. */
const TABLE_OPERATIONS = ["PutItem", "GetItem", "UpdateItem", "DeleteItem"] as const;

const metric = (namespace: string, metricName: string, dimensions: Record<string, string>, stat: MetricStat["stat"] = "Sum"): MetricStat => ({ namespace, metricName, dimensions, stat });

/** A spec that fires on any count above zero in a minute. */
function anyCount(id: AlarmSpec["id"], meaning: string, firstCommand: string, m: AlarmSpec["metric"]): AlarmSpec {
  return { id, severity: "page", meaning, firstCommand, metric: m, period: 60, evaluationPeriods: 1, datapointsToAlarm: 1, threshold: 0, comparison: "GreaterThanThreshold", treatMissingData: "notBreaching", okActions: true };
}

/** The sum of DynamoDB metrics, zero where DynamoDB published nothing (CloudWatch ignores missing AWS/DynamoDB data). */
function tableSum(metrics: MetricStat[], label: string): AlarmQuery[] {
  const ids = metrics.map((_, i) => `t${i}`);
  return [...metrics.map((m, i) => ({ id: ids[i], metric: m })), { id: "total", expression: `FILL(SUM([${ids.join(", ")}]), 0)`, label, returnData: true }];
}

export function computeAlarmSpecs(p: ResolvedPipelineProps, r: ComputeRefs): AlarmSpec[] {
  const states = (name: string) => metric("AWS/States", name, { StateMachineArn: r.stateMachineArn });
  const lambda = (name: string, stat: MetricStat["stat"] = "Sum") => metric("AWS/Lambda", name, { FunctionName: r.functionName }, stat);
  const pipes = (name: string) => metric("AWS/EventBridge/Pipes", name, { PipeName: r.pipeName });
  const tables = [r.ledgerTable, r.idempotencyTable];
  return [
    anyCount("executions-failed", "A batch execution failed: its whole batch returns to the queue and is retried.", `${OPS} dlq list (then the workflow's log group)`, states("ExecutionsFailed")),
    anyCount("executions-timed-out", "A batch execution timed out: its whole batch returns to the queue and is retried.", `${OPS} dlq list (then the workflow's log group)`, states("ExecutionsTimedOut")),
    anyCount(
      "function-errors",
      "The downstream function failed (a transient error, a timeout, a crash), a whole invocation or one record of a batch: the record is retried. Rejections (a PermanentError or ConflictError, or an error named in function.permanentErrors or conflictErrors) are quarantines as designed and are not counted.",
      `${OPS} trace <key> (the key from the function's ERROR log line)`,
      [
        { id: "errors", metric: lambda("Errors") },
        { id: "rejected", metric: metric(r.rejected.namespace, r.rejected.metricName, {}) },
        { id: "batchFailed", metric: metric(r.batchFailed.namespace, r.batchFailed.metricName, {}) },
        { id: "failures", expression: "errors - rejected + batchFailed", label: "failed invocations and batch records", returnData: true },
      ],
    ),
    anyCount("function-throttles", "Lambda throttled the downstream function (reserved or account concurrency): throttles become retries, then retries-exhausted in the DLQ.", `${OPS} dlq list --reason retries-exhausted`, lambda("Throttles")),
    {
      ...anyCount("function-duration", `The downstream function ran ${durationThresholdMs(p)} ms or longer, 80% of its ${p.function.timeoutSeconds} s timeout: next it times out and the record is retried.`, `${OPS} trace <key> (the slow invocation's key)`, lambda("Duration", "Maximum")),
      threshold: durationThresholdMs(p),
      comparison: "GreaterThanOrEqualToThreshold",
    },
    anyCount("pipe-execution-failed", "The pipe could not run the workflow for a batch: the batch returns to the queue.", `${OPS} dlq list (then the pipe's log group)`, pipes("ExecutionFailed")),
    anyCount("pipe-throttled", "The pipe's executions were throttled (StartSyncExecution or the pipe's own concurrency): messages wait in the queue.", `${OPS} dlq list (then the state machine's quotas)`, pipes("ExecutionThrottled")),
    anyCount("pipe-target-failed", "The pipe's target stage failed (the workflow refused or answered badly): the whole batch returns to the queue.", `${OPS} dlq list (then the pipe's log group)`, pipes("TargetStageFailed")),
    {
      id: "pipe-partial-failures",
      severity: "page",
      meaning: `More than ${p.plannedPartialBatchRatio} of pipe executions (the plannedPartialBatchRatio) retried a record for 10 minutes: more retries than planned (duplicates in flight, transient errors).`,
      firstCommand: `${OPS} dlq list (then the function's errors)`,
      metric: [
        { id: "partial", metric: pipes("ExecutionPartiallyFailed") },
        { id: "runs", metric: pipes("Invocations") },
        { id: "ratio", expression: "partial / runs", label: "share of executions that retried a record", returnData: true },
      ],
      period: 300,
      evaluationPeriods: 2,
      datapointsToAlarm: 2,
      threshold: p.plannedPartialBatchRatio,
      comparison: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
      okActions: true,
    },
    anyCount(
      "table-throttles",
      "DynamoDB throttled reads or writes on the ledger or the idempotency table: the workflow retries them, and past its retries the record is retried.",
      `${OPS} ledger get <key>`,
      tableSum(tables.flatMap((t) => ["ReadThrottleEvents", "WriteThrottleEvents"].map((name) => metric("AWS/DynamoDB", name, { TableName: t }))), "throttle events"),
    ),
    anyCount(
      "table-system-errors",
      "DynamoDB answered the ledger or the idempotency table with internal errors (HTTP 500): the workflow retries them, and past its retries the record is retried.",
      `${OPS} ledger get <key>`,
      tableSum(tables.flatMap((t) => TABLE_OPERATIONS.map((op) => metric("AWS/DynamoDB", "SystemErrors", { TableName: t, Operation: op }))), "system errors"),
    ),
  ];
}
