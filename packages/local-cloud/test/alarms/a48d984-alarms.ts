/**
 * The six alarms of release a48d984 (packages/pipeline/src/constructs/alarms.ts there), rebuilt on a stack synthesized
 * now: same metrics, statistics, thresholds, one 60 s period, `notBreaching`, and the default `alarmActions` (none).
 * The stack loses what a48d984 did not have (the keep-alive schedule, the topic, the metric filter), so the local
 * cloud runs what a48d984 deployed.
 */
import { referenceTo, resourcesOfType, type TerraformJson } from "@effectively-once/testing";

export function withA48d984Alarms(json: TerraformJson, prefix: string): TerraformJson {
  const copy = structuredClone(json);
  for (const type of ["aws_cloudwatch_metric_alarm", "aws_scheduler_schedule", "aws_cloudwatch_log_metric_filter", "aws_sns_topic"]) delete copy.resource[type];
  // The keep-alive's role and policy go with it.
  for (const [id, role] of resourcesOfType(json, "aws_iam_role")) if (String(role.name).startsWith(`${prefix}-dlq-ping-`)) delete copy.resource.aws_iam_role[id];
  for (const [id, policy] of resourcesOfType(json, "aws_iam_role_policy")) if (String(policy.role).includes("keepalive")) delete copy.resource.aws_iam_role_policy[id];
  delete copy.output.alarm_topic_arn;
  const queueName = (name: string) => referenceTo(json, "aws_sqs_queue", name, "name");
  const alarm = (id: string, namespace: string, metricName: string, dimensions: Record<string, string>, statistic: string, threshold: number, comparison = "GreaterThanThreshold") => [
    `old_${id.replaceAll("-", "_")}`,
    {
      alarm_name: `${prefix}-${id}`,
      alarm_description: `a48d984's ${id}`,
      namespace,
      metric_name: metricName,
      dimensions,
      statistic,
      period: 60,
      evaluation_periods: 1,
      threshold,
      comparison_operator: comparison,
      treat_missing_data: "notBreaching",
      alarm_actions: [],
      ok_actions: [],
    },
  ];
  const fn = referenceTo(json, "aws_lambda_function", `${prefix}-charge`, "function_name");
  const [[machineId]] = resourcesOfType(json, "aws_sfn_state_machine");
  const [[pipeId]] = resourcesOfType(json, "aws_pipes_pipe");
  copy.resource.aws_cloudwatch_metric_alarm = Object.fromEntries([
    alarm("dlq-depth", "AWS/SQS", "ApproximateNumberOfMessagesVisible", { QueueName: queueName(`${prefix}-dlq`) }, "Maximum", 0),
    alarm("oldest-message-age", "AWS/SQS", "ApproximateAgeOfOldestMessage", { QueueName: queueName(`${prefix}-queue`) }, "Maximum", 600, "GreaterThanOrEqualToThreshold"),
    alarm("executions-failed", "AWS/States", "ExecutionsFailed", { StateMachineArn: `\${aws_sfn_state_machine.${machineId}.arn}` }, "Sum", 0),
    alarm("executions-timed-out", "AWS/States", "ExecutionsTimedOut", { StateMachineArn: `\${aws_sfn_state_machine.${machineId}.arn}` }, "Sum", 0),
    alarm("function-errors", "AWS/Lambda", "Errors", { FunctionName: fn }, "Sum", 0),
    alarm("pipe-execution-failed", "AWS/EventBridge/Pipes", "ExecutionFailed", { PipeName: `\${aws_pipes_pipe.${pipeId}.name}` }, "Sum", 0),
  ]);
  return copy;
}
