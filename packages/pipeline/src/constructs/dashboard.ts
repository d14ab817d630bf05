import { CloudwatchDashboard } from "@cdktf/provider-aws/lib/cloudwatch-dashboard";
import { Construct } from "constructs";
import { DlqReason, FATE_METRICS_NAMESPACE, FATE_REASON_DIMENSION, FATE_SERVICE_DIMENSION, FateMetric } from "@effectively-once/contract";
import type { DownstreamFunction } from "./downstream-function";
import type { PipelineQueues } from "./queues";
import type { PipelineResourceNames } from "./resource-names";
import type { PipelineTables } from "./tables";
import { LEDGER_OPERATIONS, type PipelineWorkflow } from "./workflow";

/** CloudWatch metric array: namespace, name, dimension pairs, optionally a rendering-options object last. */
type Metric = (string | { readonly stat: string })[];

/**
 * DynamoDB publishes `ThrottledRequests` per `TableName` *and* `Operation`: a line that names the table alone matches
 * no metric and stays empty. The ledger's operations are the ones the workflow is granted; Powertools' on its table.
 */
const IDEMPOTENCY_OPERATIONS = ["PutItem", "GetItem", "UpdateItem", "DeleteItem"] as const;

function throttles(table: string, operations: readonly string[]): Metric[] {
  return operations.map((op) => ["AWS/DynamoDB", "ThrottledRequests", "TableName", table, "Operation", op]);
}

function widget(title: string, metrics: Metric[], region: string, stat = "Sum") {
  return { type: "metric", width: 12, height: 6, properties: { title, metrics, region, stat, period: 60, view: "timeSeries" } };
}

/** One page that answers "is it flowing, is it failing, is it duplicating". */
export class PipelineDashboard extends Construct {
  readonly dashboard: CloudwatchDashboard;

  /** `region`: the stack's region (a reference to `data "aws_region"`), where the widgets read their metrics. */
  constructor(scope: Construct, id: string, region: string, parts: { names: PipelineResourceNames; service: string; queues: PipelineQueues; tables: PipelineTables; workflow: PipelineWorkflow; fn: DownstreamFunction }) {
    super(scope, id);
    const q = parts.queues.queue.name;
    const dlq = parts.queues.deadLetterQueue.name;
    const sm = parts.workflow.stateMachine.arn;
    const fn = parts.fn.function.functionName;
    const ledger = parts.tables.ledger.name;
    const idempotency = parts.tables.idempotency.name;
    // Powertools Metrics' one dimension: the function's POWERTOOLS_SERVICE_NAME.
    const service = parts.service;
    const widgets = [
      widget("Source queue", [["AWS/SQS", "NumberOfMessagesSent", "QueueName", q], ["AWS/SQS", "NumberOfMessagesDeleted", "QueueName", q], ["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", q, { stat: "Maximum" }]], region),
      widget("Dead-letter queue depth", [["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", dlq]], region, "Maximum"),
      widget("Batch executions", [["AWS/States", "ExecutionsStarted", "StateMachineArn", sm], ["AWS/States", "ExecutionsSucceeded", "StateMachineArn", sm], ["AWS/States", "ExecutionsFailed", "StateMachineArn", sm], ["AWS/States", "ExecutionsTimedOut", "StateMachineArn", sm]], region),
      widget("Downstream function", [["AWS/Lambda", "Invocations", "FunctionName", fn], ["AWS/Lambda", "Errors", "FunctionName", fn], ["AWS/Lambda", "Throttles", "FunctionName", fn]], region),
      widget("Ledger: claims refused (duplicates and conflicts)", [["AWS/DynamoDB", "ConditionalCheckFailedRequests", "TableName", ledger]], region),
      widget("Throttled requests (ledger and Powertools table, per operation)", [...throttles(ledger, LEDGER_OPERATIONS), ...throttles(idempotency, IDEMPOTENCY_OPERATIONS)], region),
      widget("Fates the function decided: applied, second-layer duplicates", [[FATE_METRICS_NAMESPACE, FateMetric.Applied, FATE_SERVICE_DIMENSION, service], [FATE_METRICS_NAMESPACE, FateMetric.Duplicate, FATE_SERVICE_DIMENSION, service]], region),
      widget("Fates the workflow decided: recognised duplicates, retries", [[FATE_METRICS_NAMESPACE, FateMetric.RecognisedDuplicate, FATE_SERVICE_DIMENSION, service], [FATE_METRICS_NAMESPACE, FateMetric.Retried, FATE_SERVICE_DIMENSION, service]], region),
      // One line per reason the workflow writes (a fixed set: the contract's DlqReason).
      widget("Quarantined, by reason", Object.values(DlqReason).map((reason) => [FATE_METRICS_NAMESPACE, FateMetric.Quarantined, FATE_SERVICE_DIMENSION, service, FATE_REASON_DIMENSION, reason]), region),
      widget("Send to effect (first send to applied), ms", [[FATE_METRICS_NAMESPACE, FateMetric.SendToEffect, FATE_SERVICE_DIMENSION, service, { stat: "p50" }], [FATE_METRICS_NAMESPACE, FateMetric.SendToEffect, FATE_SERVICE_DIMENSION, service, { stat: "p99" }]], region, "p95"),
      widget("Latency", [["AWS/States", "ExecutionTime", "StateMachineArn", sm], ["AWS/Lambda", "Duration", "FunctionName", fn]], region, "p95"),
    ];
    this.dashboard = new CloudwatchDashboard(this, "dashboard", {
      dashboardName: parts.names.dashboard,
      dashboardBody: JSON.stringify({ widgets }),
    });
  }
}
