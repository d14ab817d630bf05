/**
 * What AWS accepts, as data: each limit with its value and its source (an API model shape in botocore, vendored in
 * packages/testing/src/aws-models and held equal there by packages/pipeline/test/constructs/aws-limits-model.test.ts, or a documentation page). The
 * synth-time rules (aws-name-rules.ts, aws-prop-rules.ts, function-rules.ts, region-rules.ts) read them from here
 * only, and docs/construct.md lists them.
 */
import { NameKind } from "./resource-names";

/** Where a limit comes from: a model shape (`service Shape`) and/or a documentation page. */
export interface LimitSource {
  /** `<model file> <shape>` in packages/testing/src/aws-models (e.g. `iam roleNameType`). */
  readonly model?: string;
  readonly doc?: string;
}

/** A service's rule for one kind of name: length in characters and the characters allowed. */
export interface NameLimit {
  readonly service: string;
  readonly min: number;
  readonly max: number;
  /** The whole name must match (anchored here). */
  readonly pattern: RegExp;
  /** The characters allowed, in words, for the fix. */
  readonly allowed: string;
  readonly source: LimitSource;
}

export const NAME_LIMITS: Readonly<Record<NameKind, NameLimit>> = {
  [NameKind.SqsQueue]: {
    service: "SQS queue name",
    min: 1,
    max: 80,
    // A FIFO queue's name ends in `.fifo`, counted in the 80 (CreateQueue).
    pattern: /^[A-Za-z0-9_-]+(\.fifo)?$/,
    allowed: "letters, digits, '-' and '_' (a FIFO queue's name ends in .fifo)",
    source: { doc: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_CreateQueue.html" },
  },
  [NameKind.DynamoDbTable]: { service: "DynamoDB table name", min: 3, max: 255, pattern: /^[a-zA-Z0-9_.-]+$/, allowed: "letters, digits, '_', '-' and '.'", source: { model: "dynamodb TableName" } },
  [NameKind.LambdaFunction]: {
    service: "Lambda function name",
    min: 1,
    max: 64,
    pattern: /^[a-zA-Z0-9_-]+$/,
    allowed: "letters, digits, '-' and '_'",
    // The model's FunctionName (max 140) also accepts ARNs; a bare name is limited to 64 characters.
    source: { model: "lambda FunctionName", doc: "https://docs.aws.amazon.com/lambda/latest/api/API_CreateFunction.html" },
  },
  [NameKind.IamRole]: { service: "IAM role name", min: 1, max: 64, pattern: /^[\w+=,.@-]+$/, allowed: "letters, digits and '+=,.@_-'", source: { model: "iam roleNameType" } },
  [NameKind.IamRolePolicy]: { service: "IAM policy name", min: 1, max: 128, pattern: /^[\w+=,.@-]+$/, allowed: "letters, digits and '+=,.@_-'", source: { model: "iam policyNameType" } },
  [NameKind.LogGroup]: { service: "CloudWatch Logs log group name", min: 1, max: 512, pattern: /^[.\-_/#A-Za-z0-9]+$/, allowed: "letters, digits and '._-/#'", source: { model: "logs LogGroupName" } },
  [NameKind.StateMachine]: {
    service: "Step Functions state machine name",
    min: 1,
    max: 80,
    // No whitespace, brackets, wildcards, control characters or any of "#%\^|~`$&,;:/ (the API reference).
    pattern: /^[^\s<>{}[\]?*"#%\\^|~`$&,;:/\u0000-\u001f\u007f-\u009f]+$/,
    allowed: "no whitespace, brackets, wildcards, control characters or \"#%\\^|~`$&,;:/",
    source: { model: "stepfunctions Name", doc: "https://docs.aws.amazon.com/step-functions/latest/apireference/API_CreateStateMachine.html" },
  },
  [NameKind.Pipe]: { service: "EventBridge pipe name", min: 1, max: 64, pattern: /^[.\-_A-Za-z0-9]+$/, allowed: "letters, digits and '._-'", source: { model: "pipes PipeName" } },
  [NameKind.Alarm]: {
    service: "CloudWatch alarm name",
    min: 1,
    max: 255,
    pattern: /^[^\u0000-\u001f\u007f]+$/,
    allowed: "no ASCII control characters",
    source: { model: "cloudwatch AlarmName", doc: "https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutMetricAlarm.html" },
  },
  [NameKind.SnsTopic]: {
    service: "SNS topic name",
    min: 1,
    max: 256,
    pattern: /^[A-Za-z0-9_-]+$/,
    allowed: "letters, digits, '-' and '_'",
    source: { doc: "https://docs.aws.amazon.com/sns/latest/api/API_CreateTopic.html" },
  },
  [NameKind.Schedule]: {
    service: "EventBridge Scheduler schedule name",
    min: 1,
    max: 64,
    pattern: /^[0-9a-zA-Z-_.]+$/,
    allowed: "letters, digits and '-_.'",
    source: { doc: "https://docs.aws.amazon.com/scheduler/latest/APIReference/API_CreateSchedule.html" },
  },
  [NameKind.Dashboard]: {
    service: "CloudWatch dashboard name",
    min: 1,
    max: 255,
    pattern: /^[A-Za-z0-9_-]+$/,
    allowed: "letters, digits, '-' and '_'",
    source: { doc: "https://docs.aws.amazon.com/AmazonCloudWatch/latest/APIReference/API_PutDashboard.html" },
  },
};

/** CloudWatch Logs' retention values (days); any other value is refused by PutRetentionPolicy. */
export const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;
export const LOG_RETENTION_SOURCE: LimitSource = { model: "logs Days" };

// Lambda's configuration limits have one owner, the contract (the local cloud's Lambda refuses by them too); their
// sources stay here with the construct's other citations.
export { LAMBDA_ENVIRONMENT_MAX_BYTES, LAMBDA_MEMORY_MB, LAMBDA_RESERVED_VARIABLES, LAMBDA_TIMEOUT_SECONDS, LAMBDA_VARIABLE_NAME } from "@effectively-once/contract";
export const LAMBDA_ENVIRONMENT_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html" };
export const LAMBDA_VARIABLE_NAME_SOURCE: LimitSource = { model: "lambda EnvironmentVariableName" };
export const LAMBDA_RESERVED_VARIABLES_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html" };

/** Where Lambda's memory (MB) and timeout (s) ranges come from (the model's MemorySize also covers Managed Instances). */
export const LAMBDA_FUNCTION_SOURCE: LimitSource = { model: "lambda MemorySize, Timeout", doc: "https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html" };

/** Levels the function's logging configuration accepts (`applicationLogLevel`). */
export const LAMBDA_APPLICATION_LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"] as const;
/** Levels the state machine's logging configuration accepts. */
export const STATE_MACHINE_LOG_LEVELS = ["ALL", "ERROR", "FATAL", "OFF"] as const;

/**
 * The account's concurrency: reserving for one function must leave at least 100 unreserved. The account's quota is
 * known only online (the preflight reads it); the synth assumes the default, 1,000.
 */
export const UNRESERVED_CONCURRENCY_MIN = 100;
export const ASSUMED_ACCOUNT_CONCURRENCY = 1000;
export const CONCURRENCY_SOURCE: LimitSource = { model: "lambda ReservedConcurrentExecutions", doc: "https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html" };

/** A pipe's filter criteria: at most 5 patterns, each at most 4,096 characters of JSON. */
export const PIPE_FILTERS_MAX = 5;
export const PIPE_FILTER_PATTERN_MAX_CHARS = 4096;
export const PIPE_FILTER_SOURCE: LimitSource = { model: "pipes FilterList, EventPattern" };

/** An alarm's actions: at most 5 ARNs of at most 1,024 characters. */
export const ALARM_ACTIONS_MAX = 5;
export const ALARM_ACTION_MAX_CHARS = 1024;
export const ALARM_ACTIONS_SOURCE: LimitSource = { model: "cloudwatch ResourceList, ResourceName" };

/** Terraform identifiers (the output names): a letter or '_' first, then letters, digits, '_' and '-'. */
export const TERRAFORM_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
export const TERRAFORM_IDENTIFIER_SOURCE: LimitSource = { doc: "https://developer.hashicorp.com/terraform/language/syntax/configuration#identifiers" };

/** AWS's GovCloud (US) guide: "EventBridge Pipes is not available". */
export const GOVCLOUD_PIPES_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/govcloud-us/latest/UserGuide/govcloud-eventbridge.html" };
/** AWS in China: "Amazon X-Ray integration with Lambda functions is not available in the China Regions." */
export const CHINA_LAMBDA_XRAY_SOURCE: LimitSource = { doc: "https://docs.amazonaws.cn/en_us/aws/latest/userguide/lambda.html" };

/**
 * IAM's policy grammar and quotas: an action is `<service prefix>:<action>` (wildcards allowed) or `*`; a Sid holds
 * only ASCII letters and digits; a role's inline policies together hold at most 10,240 characters, whitespace not
 * counted (IAM quotas, "IAM and AWS STS character limits").
 */
export const IAM_ACTION = /^(\*|[A-Za-z0-9-]+:[A-Za-z0-9*?]+)$/;
export const IAM_SID = /^[A-Za-z0-9]*$/;
export const IAM_ROLE_POLICY_MAX_CHARS = 10_240;
export const IAM_POLICY_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html; https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_sid.html" };

/** Tags on a resource: at most 50, keys up to 128 Unicode characters, values up to 256, no `aws:` prefix (reserved). */
export const TAGS_MAX = 50;
export const TAG_KEY_MAX_CHARS = 128;
export const TAG_VALUE_MAX_CHARS = 256;
export const TAGS_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/batch/latest/userguide/tag-restrictions.html" };

/** A citation for an error's fix: the model shape and/or the page. */
export function cite(source: LimitSource): string {
  return [source.model ? `AWS API model ${source.model}` : undefined, source.doc].filter(Boolean).join("; ");
}

/** SQS's quotas on one queue's policy ("Amazon SQS policy quotas"), each checked at synth over the policy the construct writes. */
export const SQS_POLICY_QUOTAS = { bytes: 8192, statements: 20, principals: 50, conditions: 10, actionsPerStatement: 7 } as const;
export const SQS_POLICY_QUOTAS_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-policies.html" };
/** The actions an SQS policy can name (the IAM actions of SQS; batch calls are authorized as their single action). */
export const SQS_IAM_ACTIONS = [
  "AddPermission", "CancelMessageMoveTask", "ChangeMessageVisibility", "CreateQueue", "DeleteMessage", "DeleteQueue", "GetQueueAttributes", "GetQueueUrl",
  "ListDeadLetterSourceQueues", "ListMessageMoveTasks", "ListQueueTags", "ListQueues", "PurgeQueue", "ReceiveMessage", "RemovePermission", "SendMessage",
  "SetQueueAttributes", "StartMessageMoveTask", "TagQueue", "UntagQueue",
] as const;
// botocore's sqs model lists these operations and the three *Batch calls, which IAM authorizes as their single action.
export const SQS_IAM_ACTIONS_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsqs.html" };
/** IAM's statement id: ASCII letters and digits ("IAM JSON policy elements: Sid"). */
export const POLICY_SID = /^[A-Za-z0-9]+$/;
export const POLICY_SID_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_sid.html" };
/**
 * A queue ARN as long as any can be: the longest partition (`aws-us-gov`) and region name (15 characters,
 * `us-isof-south-1`) in botocore's endpoints.json, a 12-digit account. The policy's size is counted with it, since
 * the synthesized policy holds a reference where SQS will see the ARN.
 */
export function longestQueueArn(queueName: string): string {
  return `arn:aws-us-gov:sqs:us-isof-south-1:123456789012:${queueName}`;
}

/** Messages in flight (received, not deleted) per queue, standard and FIFO: "approximately 120,000" (SQS quotas). */
export const SQS_IN_FLIGHT_MAX = 120_000;
export const SQS_IN_FLIGHT_SOURCE: LimitSource = { doc: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-messages.html" };
