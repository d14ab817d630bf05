import { CloudwatchMetricAlarm } from "@cdktf/provider-aws/lib/cloudwatch-metric-alarm";
import { Construct } from "constructs";
import type { DownstreamFunction } from "./downstream-function";
import type { PipelinePipe } from "./pipe";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import type { AlarmId, PipelineResourceNames } from "./resource-names";
import type { PipelineWorkflow } from "./workflow";
import { alarmActionPreconditions } from "./pass-through-rules";

interface AlarmSpec {
  readonly id: AlarmId;
  readonly description: string;
  readonly namespace: string;
  readonly metricName: string;
  readonly dimensions: Record<string, string>;
  readonly statistic: "Sum" | "Maximum";
  readonly threshold: number;
  readonly comparisonOperator: "GreaterThanThreshold" | "GreaterThanOrEqualToThreshold";
}

/** What an operator must hear about: quarantined messages, a stalled queue, failed batches, failing code. */
export class PipelineAlarms extends Construct {
  readonly alarms: CloudwatchMetricAlarm[];

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: { names: PipelineResourceNames; queues: PipelineQueues; workflow: PipelineWorkflow; fn: DownstreamFunction; pipe: PipelinePipe; region: string }) {
    super(scope, id);
    const specs: AlarmSpec[] = [
      {
        id: "dlq-depth",
        description: "Messages were quarantined or exhausted their retries: inspect them with `npm run -s ops -- dlq list`.",
        namespace: "AWS/SQS",
        metricName: "ApproximateNumberOfMessagesVisible",
        dimensions: { QueueName: parts.queues.deadLetterQueue.name },
        statistic: "Maximum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
      },
      {
        id: "oldest-message-age",
        description: `The oldest message in the source queue waits longer than ${p.oldestMessageAgeAlarmSeconds} s: the pipeline is stalled or too slow.`,
        namespace: "AWS/SQS",
        metricName: "ApproximateAgeOfOldestMessage",
        dimensions: { QueueName: parts.queues.queue.name },
        statistic: "Maximum",
        threshold: p.oldestMessageAgeAlarmSeconds,
        comparisonOperator: "GreaterThanOrEqualToThreshold",
      },
      ...(["ExecutionsFailed", "ExecutionsTimedOut"] as const).map((metricName) => ({
        id: metricName === "ExecutionsFailed" ? ("executions-failed" as const) : ("executions-timed-out" as const),
        description: `A batch execution ${metricName === "ExecutionsFailed" ? "failed" : "timed out"}: its whole batch returns to the queue.`,
        namespace: "AWS/States",
        metricName,
        dimensions: { StateMachineArn: parts.workflow.stateMachine.arn },
        statistic: "Sum" as const,
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold" as const,
      })),
      {
        id: "function-errors",
        description: "The downstream function threw: transient errors are retried, permanent ones quarantined as 'rejected'.",
        namespace: "AWS/Lambda",
        metricName: "Errors",
        dimensions: { FunctionName: parts.fn.function.functionName },
        statistic: "Sum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
      },
      {
        id: "pipe-execution-failed",
        description: "The pipe could not run the workflow for a batch.",
        namespace: "AWS/EventBridge/Pipes",
        metricName: "ExecutionFailed",
        dimensions: { PipeName: parts.pipe.pipe.name },
        statistic: "Sum",
        threshold: 0,
        comparisonOperator: "GreaterThanThreshold",
      },
    ];
    // An action's region the synth could not check (the region comes from the environment at plan time).
    const precondition = alarmActionPreconditions(p, parts.region);
    this.alarms = specs.map(
      (s) =>
        new CloudwatchMetricAlarm(this, s.id, {
          alarmName: parts.names.alarm(s.id),
          alarmDescription: s.description,
          namespace: s.namespace,
          metricName: s.metricName,
          dimensions: s.dimensions,
          statistic: s.statistic,
          period: 60,
          evaluationPeriods: 1,
          threshold: s.threshold,
          comparisonOperator: s.comparisonOperator,
          treatMissingData: "notBreaching",
          alarmActions: [...p.alarmActions],
          okActions: [...p.alarmActions],
          ...(precondition.length > 0 ? { lifecycle: { precondition } } : {}),
        }),
    );
  }
}
