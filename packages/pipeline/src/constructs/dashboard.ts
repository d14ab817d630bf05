import { CloudwatchDashboard } from "@cdktf/provider-aws/lib/cloudwatch-dashboard";
import { Construct } from "constructs";
import type { DownstreamFunction } from "./downstream-function";
import type { PipelineQueues } from "./queues";
import type { PipelineResourceNames } from "./resource-names";
import type { PipelineTables } from "./tables";
import type { PipelineWorkflow } from "./workflow";

/** CloudWatch metric array: namespace, name, dimension pairs, optionally a rendering-options object last. */
type Metric = (string | { readonly stat: string })[];

function widget(title: string, metrics: Metric[], region: string, stat = "Sum") {
  return { type: "metric", width: 12, height: 6, properties: { title, metrics, region, stat, period: 60, view: "timeSeries" } };
}

/** One page that answers "is it flowing, is it failing, is it duplicating". */
export class PipelineDashboard extends Construct {
  readonly dashboard: CloudwatchDashboard;

  /** `region`: the stack's region (a reference to `data "aws_region"`), where the widgets read their metrics. */
  constructor(scope: Construct, id: string, region: string, parts: { names: PipelineResourceNames; queues: PipelineQueues; tables: PipelineTables; workflow: PipelineWorkflow; fn: DownstreamFunction }) {
    super(scope, id);
    const q = parts.queues.queue.name;
    const dlq = parts.queues.deadLetterQueue.name;
    const sm = parts.workflow.stateMachine.arn;
    const fn = parts.fn.function.functionName;
    const ledger = parts.tables.ledger.name;
    const widgets = [
      widget("Source queue", [["AWS/SQS", "NumberOfMessagesSent", "QueueName", q], ["AWS/SQS", "NumberOfMessagesDeleted", "QueueName", q], ["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", q, { stat: "Maximum" }]], region),
      widget("Dead-letter queue depth", [["AWS/SQS", "ApproximateNumberOfMessagesVisible", "QueueName", dlq]], region, "Maximum"),
      widget("Batch executions", [["AWS/States", "ExecutionsStarted", "StateMachineArn", sm], ["AWS/States", "ExecutionsSucceeded", "StateMachineArn", sm], ["AWS/States", "ExecutionsFailed", "StateMachineArn", sm], ["AWS/States", "ExecutionsTimedOut", "StateMachineArn", sm]], region),
      widget("Downstream function", [["AWS/Lambda", "Invocations", "FunctionName", fn], ["AWS/Lambda", "Errors", "FunctionName", fn], ["AWS/Lambda", "Throttles", "FunctionName", fn]], region),
      widget("Ledger: claims refused (duplicates and conflicts) and throttles", [["AWS/DynamoDB", "ConditionalCheckFailedRequests", "TableName", ledger], ["AWS/DynamoDB", "ThrottledRequests", "TableName", ledger]], region),
      widget("Latency", [["AWS/States", "ExecutionTime", "StateMachineArn", sm], ["AWS/Lambda", "Duration", "FunctionName", fn]], region, "p95"),
    ];
    this.dashboard = new CloudwatchDashboard(this, "dashboard", {
      dashboardName: parts.names.dashboard,
      dashboardBody: JSON.stringify({ widgets }),
    });
  }
}
