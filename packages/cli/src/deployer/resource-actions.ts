/**
 * What hashicorp/aws calls for each resource type of a stack, to create, read, update, delete and tag it, and which
 * resource IAM authorizes each call against. Read from the provider's behaviour (the calls `npx effectively-once rehearse
 * --record-calls` records, packages/cli/test/deployer/fixtures/rehearsal-calls.json) and its source for what a rehearsal cannot
 * reach (updates moto lacks, tag changes, reserved concurrency). A resource type missing here stops the generator:
 * add its row, then regenerate the recording.
 */
export interface TypeActions {
  /** Actions on the resource itself, or on the resource `on` names. */
  readonly actions: readonly string[];
  /** The attribute holding a reference to the resource the actions apply to (a role policy acts on its role). */
  readonly on?: string;
  /** The service a role of this type is handed to (iam:PassRole), by the attribute that names the role. */
  readonly passesRole?: { readonly attribute: string };
}

export const RESOURCE_ACTIONS: ReadonlyMap<string, TypeActions> = new Map<string, TypeActions>([
  ["aws_sqs_queue", { actions: ["sqs:CreateQueue", "sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SetQueueAttributes", "sqs:ListQueueTags", "sqs:TagQueue", "sqs:UntagQueue", "sqs:DeleteQueue"] }],
  ["aws_sqs_queue_redrive_allow_policy", { on: "queue_url", actions: ["sqs:GetQueueAttributes", "sqs:SetQueueAttributes"] }],
  ["aws_sqs_queue_redrive_policy", { on: "queue_url", actions: ["sqs:GetQueueAttributes", "sqs:SetQueueAttributes"] }],
  ["aws_sqs_queue_policy", { on: "queue_url", actions: ["sqs:GetQueueAttributes", "sqs:SetQueueAttributes"] }],
  ["aws_dynamodb_table", {
    actions: ["dynamodb:CreateTable", "dynamodb:DescribeTable", "dynamodb:UpdateTable", "dynamodb:DeleteTable", "dynamodb:DescribeContinuousBackups", "dynamodb:UpdateContinuousBackups",
      "dynamodb:DescribeTimeToLive", "dynamodb:UpdateTimeToLive", "dynamodb:ListTagsOfResource", "dynamodb:TagResource", "dynamodb:UntagResource"],
  }],
  ["aws_iam_role", {
    actions: ["iam:CreateRole", "iam:GetRole", "iam:UpdateRole", "iam:UpdateRoleDescription", "iam:UpdateAssumeRolePolicy", "iam:DeleteRole", "iam:TagRole", "iam:UntagRole",
      "iam:ListRolePolicies", "iam:ListAttachedRolePolicies", "iam:ListInstanceProfilesForRole", "iam:DeleteRolePolicy"],
  }],
  ["aws_iam_role_policy", { on: "role", actions: ["iam:PutRolePolicy", "iam:GetRolePolicy", "iam:DeleteRolePolicy"] }],
  ["aws_lambda_function", {
    passesRole: { attribute: "role" },
    actions: ["lambda:CreateFunction", "lambda:GetFunction", "lambda:GetFunctionConfiguration", "lambda:GetFunctionCodeSigningConfig", "lambda:ListVersionsByFunction",
      "lambda:UpdateFunctionCode", "lambda:UpdateFunctionConfiguration", "lambda:PutFunctionConcurrency", "lambda:DeleteFunctionConcurrency", "lambda:DeleteFunction",
      "lambda:ListTags", "lambda:TagResource", "lambda:UntagResource"],
  }],
  ["aws_sfn_state_machine", {
    passesRole: { attribute: "role_arn" },
    actions: ["states:CreateStateMachine", "states:DescribeStateMachine", "states:UpdateStateMachine", "states:DeleteStateMachine", "states:ListStateMachineVersions",
      "states:ValidateStateMachineDefinition", "states:ListTagsForResource", "states:TagResource", "states:UntagResource"],
  }],
  ["aws_pipes_pipe", {
    passesRole: { attribute: "role_arn" },
    actions: ["pipes:CreatePipe", "pipes:DescribePipe", "pipes:UpdatePipe", "pipes:StartPipe", "pipes:StopPipe", "pipes:DeletePipe", "pipes:ListTagsForResource", "pipes:TagResource", "pipes:UntagResource"],
  }],
  ["aws_cloudwatch_log_group", {
    actions: ["logs:CreateLogGroup", "logs:DescribeLogGroups", "logs:PutRetentionPolicy", "logs:DeleteRetentionPolicy", "logs:DeleteLogGroup", "logs:ListTagsForResource", "logs:TagResource", "logs:UntagResource",
      // A changed kms_key_id (the construct's `encryption`): the provider's update calls these; a create passes the key to CreateLogGroup.
      "logs:AssociateKmsKey", "logs:DisassociateKmsKey"],
  }],
  ["aws_cloudwatch_log_resource_policy", { actions: ["logs:PutResourcePolicy", "logs:DescribeResourcePolicies", "logs:DeleteResourcePolicy"] }],
  ["aws_cloudwatch_metric_alarm", { actions: ["cloudwatch:PutMetricAlarm", "cloudwatch:DescribeAlarms", "cloudwatch:DeleteAlarms", "cloudwatch:ListTagsForResource", "cloudwatch:TagResource", "cloudwatch:UntagResource"] }],
  ["aws_cloudwatch_log_metric_filter", { on: "log_group_name", actions: ["logs:PutMetricFilter", "logs:DescribeMetricFilters", "logs:DeleteMetricFilter"] }],
  // The workflow's fate metrics stream: IAM authorizes the stream calls against its log group.
  ["aws_cloudwatch_log_stream", { on: "log_group_name", actions: ["logs:CreateLogStream", "logs:DescribeLogStreams", "logs:DeleteLogStream"] }],
  ["aws_sns_topic", { actions: ["sns:CreateTopic", "sns:GetTopicAttributes", "sns:SetTopicAttributes", "sns:ListTagsForResource", "sns:TagResource", "sns:UntagResource", "sns:DeleteTopic"] }],
  // The queue edit alert (queue-edit-alert.ts): the rule, its target (on the rule) and the topic's policy (on the topic).
  ["aws_cloudwatch_event_rule", { actions: ["events:PutRule", "events:DescribeRule", "events:ListTagsForResource", "events:TagResource", "events:UntagResource", "events:DeleteRule"] }],
  ["aws_cloudwatch_event_target", { on: "rule", actions: ["events:PutTargets", "events:ListTargetsByRule", "events:RemoveTargets"] }],
  ["aws_sns_topic_policy", { on: "arn", actions: ["sns:SetTopicAttributes", "sns:GetTopicAttributes"] }],
  ["aws_scheduler_schedule", { passesRole: { attribute: "target" }, actions: ["scheduler:CreateSchedule", "scheduler:GetSchedule", "scheduler:UpdateSchedule", "scheduler:DeleteSchedule"] }],
  ["aws_cloudwatch_dashboard", { actions: ["cloudwatch:PutDashboard", "cloudwatch:GetDashboard", "cloudwatch:DeleteDashboards"] }],
]);

/**
 * Data sources and what they call: the account (sts:GetCallerIdentity, which AWS authorizes for everyone: "No
 * permissions are required"), the partition and the region (answered by the provider itself, no call).
 */
export const DATA_SOURCES_WITHOUT_PERMISSIONS: ReadonlySet<string> = new Set(["aws_caller_identity", "aws_partition", "aws_region"]);

/**
 * The actions only a teardown makes: deleting the stack's resources, and `dynamodb:UpdateTable`, the call that turns a
 * table's deletion protection off (IAM has no condition key for that setting, so the action itself is held back: an
 * in-place change of a table's other settings, its key for one, then needs the teardown policy too). The rest of
 * every row is the deploy policy: create, read, update, tag, and the reads a destroy plans with.
 */
export const TEARDOWN_ACTIONS: ReadonlySet<string> = new Set([
  "sqs:DeleteQueue",
  "dynamodb:DeleteTable",
  "dynamodb:UpdateTable",
  "iam:DeleteRole",
  "iam:DeleteRolePolicy",
  "iam:ListInstanceProfilesForRole",
  "lambda:DeleteFunction",
  "states:DeleteStateMachine",
  "pipes:DeletePipe",
  "logs:DeleteLogGroup",
  "logs:DeleteResourcePolicy",
  "cloudwatch:DeleteAlarms",
  "cloudwatch:DeleteDashboards",
  "events:DeleteRule",
  "events:RemoveTargets",
]);

/**
 * Attributes naming a customer managed KMS key (the construct's `encryption` prop), by resource type. With one, the
 * services call KMS with the deployer's rights while creating and reading: DynamoDB and Lambda create grants
 * (`kms:CreateGrant`, `kms:DescribeKey`), Step Functions encrypts the definition and decrypts it for
 * DescribeStateMachine, Lambda encrypts the environment (each service's KMS page). Not recorded: moto checks no key.
 */
export const KEY_ATTRIBUTES: ReadonlyMap<string, readonly string[]> = new Map([
  ["aws_sqs_queue", ["kms_master_key_id"]],
  ["aws_dynamodb_table", ["server_side_encryption.kms_key_arn"]],
  ["aws_cloudwatch_log_group", ["kms_key_id"]],
  ["aws_sfn_state_machine", ["encryption_configuration.kms_key_id"]],
  ["aws_lambda_function", ["kms_key_arn"]],
]);
export const KEY_ACTIONS = ["kms:CreateGrant", "kms:Decrypt", "kms:DescribeKey", "kms:Encrypt", "kms:GenerateDataKey"] as const;
export const KEY_SERVICES = ["dynamodb", "lambda", "logs", "sqs", "states"] as const;
