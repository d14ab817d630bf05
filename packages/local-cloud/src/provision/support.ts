/** Resource types the local cloud runs. */
const EMULATED_TYPES = [
  "aws_sqs_queue",
  "aws_sqs_queue_redrive_allow_policy",
  "aws_dynamodb_table",
  "aws_lambda_function",
  "aws_sfn_state_machine",
  "aws_pipes_pipe",
  // Run by the local alarms (alarms/README.md).
  "aws_cloudwatch_metric_alarm",
  "aws_cloudwatch_log_metric_filter",
  "aws_scheduler_schedule",
  // PutLogEvents writes to it; its EMF documents become metrics (logs/server.ts).
  "aws_cloudwatch_log_stream",
] as const;

/** Types accepted and not run, with what that means for a user reading the start-up warning. */
const NOT_EMULATED: Record<string, string> = {
  aws_iam_role: "IAM is not enforced",
  aws_iam_role_policy: "IAM is not enforced",
  aws_iam_policy: "IAM is not enforced",
  aws_iam_role_policy_attachment: "IAM is not enforced",
  aws_cloudwatch_log_group: "logs go to the console instead",
  aws_cloudwatch_dashboard: "not drawn",
  aws_sns_topic: "an alarm's notification is recorded in `cloud.alarms`, not sent",
  aws_sqs_queue_policy: "set as the queue's Policy attribute, not enforced",
  aws_lambda_permission: "IAM is not enforced",
  aws_cloudwatch_event_rule: "the local cloud records no CloudTrail events, so the queue edit alert never fires",
  aws_cloudwatch_event_target: "the local cloud records no CloudTrail events, so the queue edit alert never fires",
  aws_sns_topic_policy: "set on the topic, not enforced",
};

/** Settings of emulated resources that have no local effect. */
const IGNORED_SETTINGS = [
  "X-Ray tracing",
  "CloudWatch logging configuration",
  "encryption at rest (SSE)",
  "point-in-time recovery",
  "deletion protection",
] as const;

/** One line for the start-up warning: everything in the stack that is accepted but not run. */
export function notEmulatedSummary(resources: Record<string, Record<string, unknown>>): string | undefined {
  const counted = Object.entries(resources)
    .filter(([type]) => !(EMULATED_TYPES as readonly string[]).includes(type))
    .map(([type, byName]) => `${Object.keys(byName).length} ${type} (${NOT_EMULATED[type] ?? "unknown to the local cloud"})`);
  if (counted.length === 0) return undefined;
  return `not emulated: ${counted.join(", ")}; also ignored: ${IGNORED_SETTINGS.join(", ")}`;
}
