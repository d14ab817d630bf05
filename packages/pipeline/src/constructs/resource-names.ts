/**
 * The name of every AWS resource the pipeline creates, derived from `namePrefix`, `function.name` and, for the names
 * that are unique per account rather than per region (IAM roles, the CloudWatch dashboard), the provider's region: the
 * one place they are spelled, read by the parts that create the resources, by the rules that hold each name to its
 * service's limits (aws-name-rules.ts) and by the check that no two constructs of a stack claim one name
 * (stack-names.ts).
 */

import { FIFO_SUFFIX } from "@effectively-once/contract";

/** The alarms, by id; an alarm is named `<namePrefix>-<id>` (docs/operations.md explains each). */
export const ALARM_IDS = [
  "dlq-depth",
  "dlq-arrivals",
  "dlq-expiry",
  "oldest-message-age",
  "messages-in-flight",
  "executions-failed",
  "executions-timed-out",
  "function-errors",
  "function-throttles",
  "function-duration",
  "pipe-execution-failed",
  "pipe-throttled",
  "pipe-target-failed",
  "pipe-partial-failures",
  "table-throttles",
  "table-system-errors",
] as const;
export type AlarmId = (typeof ALARM_IDS)[number];

/** The name of each inline role policy (one per role). */
export const ROLE_POLICY_NAME = "least-privilege";

/** Which AWS name a resource name is held to (its service's limits in aws-limits.ts). */
export const NameKind = {
  SqsQueue: "sqs-queue",
  DynamoDbTable: "dynamodb-table",
  LambdaFunction: "lambda-function",
  IamRole: "iam-role",
  IamRolePolicy: "iam-role-policy",
  LogGroup: "log-group",
  StateMachine: "state-machine",
  Pipe: "pipe",
  Alarm: "alarm",
  SnsTopic: "sns-topic",
  Schedule: "schedule",
  Dashboard: "dashboard",
} as const;
export type NameKind = (typeof NameKind)[keyof typeof NameKind];

/**
 * Where a name must be unique. IAM role names are unique in the account ("IAM User Guide, IAM object names": names
 * "must be unique within the account"), and so are dashboards (PutDashboard: "If a dashboard with this name already
 * exists, this call modifies that dashboard", in whatever region it was made). Everything else is regional.
 */
export const NameScope = { Account: "account", Region: "region" } as const;
export type NameScope = (typeof NameScope)[keyof typeof NameScope];

/** The name kinds that are unique per account: their names carry the region, so one prefix can serve many regions. */
const ACCOUNT_WIDE_KINDS: ReadonlySet<NameKind> = new Set([NameKind.IamRole, NameKind.Dashboard]);

/**
 * The longest region code of the partitions the pipeline deploys to (aws, aws-cn; botocore's endpoints.json lists
 * `ap-northeast-1`, `ap-southeast-1` … and `cn-northwest-1`, all 14 characters). When the provider's region is not a
 * literal, the synth holds the account-wide names to their limits with a region this long.
 */
export const LONGEST_REGION = "ap-southeast-1";

/** The region the account-wide names carry: a literal, or a Terraform reference when it is known only at plan time. */
export interface NameRegion {
  /** What the names are built with: the region, or a reference such as `${data.aws_region.region.name}`. */
  readonly text: string;
  /** True when `text` is the region itself; false when it stands for one (then `LONGEST_REGION` is used for lengths). */
  readonly literal: boolean;
}

/** One resource name, the kind of name it is, and the props it is built from. */
export interface ResourceName {
  readonly resource: string;
  readonly kind: NameKind;
  readonly name: string;
  /** The props the name is built from: `namePrefix`, and `function.name` for the function's resources. */
  readonly props: readonly ("namePrefix" | "function.name")[];
  readonly scope: NameScope;
  /** The region an account-wide name carries; `assumed` when the synth does not know it (`LONGEST_REGION` stands in). */
  readonly region?: { readonly text: string; readonly assumed: boolean };
}

/** The pipeline's resource names. */
export interface PipelineResourceNames {
  readonly queue: string;
  readonly deadLetterQueue: string;
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  readonly functionName: string;
  readonly functionRole: string;
  readonly functionLogGroup: string;
  readonly stateMachine: string;
  readonly workflowRole: string;
  readonly workflowLogGroup: string;
  readonly pipe: string;
  readonly pipeRole: string;
  readonly pipeLogGroup: string;
  readonly dashboard: string;
  /** The SNS topic the alarms notify when `alarmActions` is left out. */
  readonly alarmTopic: string;
  /** The EventBridge rule that tells the alarm topic of an edit of the queues (queue-edit-alert.ts); at most 47 of EventBridge's 64 characters. */
  readonly queueEditRule: string;
  /** The schedule that keeps the DLQ active (dlq-keepalive.ts), and its role. */
  readonly dlqKeepalive: string;
  readonly dlqKeepaliveRole: string;
  alarm(id: AlarmId): string;
  /** Every name above (and each alarm's) with its kind, for the name rules. */
  readonly all: readonly ResourceName[];
}

interface NamedProps {
  readonly namePrefix: string;
  readonly fifo?: boolean;
  readonly function: { readonly name: string };
  readonly target?: { readonly providerRegion?: string };
}

/**
 * The names, with the account-wide ones in `region`. Without one, in the provider's literal region when the stack
 * writes it, else in `LONGEST_REGION` (for the length rules: the longest any region makes them).
 */
export function pipelineResourceNames(p: NamedProps, region?: NameRegion): PipelineResourceNames {
  const prefix = p.namePrefix;
  const literal = p.target?.providerRegion;
  // A literal provider region wins over a reference to it: the names are then plain text, checked exactly.
  const where: NameRegion = literal !== undefined ? { text: literal, literal: true } : (region ?? { text: LONGEST_REGION, literal: false });
  const inRegion = (base: string, suffix: string) => `${base}-${where.text}${suffix}`;
  // SQS requires a FIFO queue's name to end in `.fifo` (contract/fifo.ts).
  const queueSuffix = p.fifo ? FIFO_SUFFIX : "";
  const functionName = functionResourceName(prefix, p.function.name);
  const stateMachine = `${prefix}-workflow`;
  const pipe = `${prefix}-pipe`;
  const alarm = (id: AlarmId) => `${prefix}-${id}`;
  const names = {
    queue: `${prefix}-queue${queueSuffix}`,
    deadLetterQueue: `${prefix}-dlq${queueSuffix}`,
    ledgerTable: `${prefix}-ledger`,
    idempotencyTable: `${prefix}-idempotency`,
    functionName,
    functionRole: inRegion(functionName, "-role"),
    functionLogGroup: `/aws/lambda/${functionName}`,
    stateMachine,
    workflowRole: inRegion(stateMachine, "-role"),
    // The /aws/vendedlogs/ prefix keeps CloudWatch's resource policy small when many services deliver logs.
    workflowLogGroup: `/aws/vendedlogs/states/${stateMachine}`,
    pipe,
    pipeRole: inRegion(pipe, "-role"),
    pipeLogGroup: `/aws/vendedlogs/pipes/${pipe}`,
    dashboard: inRegion(`${prefix}-pipeline`, ""),
    alarmTopic: `${prefix}-alarms`,
    queueEditRule: `${prefix}-queue-edits`,
    dlqKeepalive: `${prefix}-dlq-keepalive`,
    // As short as the workflow role's fixed text (15 characters), so it never lowers the longest namePrefix.
    dlqKeepaliveRole: inRegion(`${prefix}-dlq-ping`, "-role"),
  };
  const P = ["namePrefix"] as const;
  const PF = ["namePrefix", "function.name"] as const;
  const named = (resource: string, kind: NameKind, name: string, props: ResourceName["props"]): ResourceName => {
    if (!ACCOUNT_WIDE_KINDS.has(kind)) return { resource, kind, name, props, scope: NameScope.Region };
    return { resource, kind, name, props, scope: NameScope.Account, region: { text: where.text, assumed: !where.literal } };
  };
  const all: ResourceName[] = [
    named("source queue", NameKind.SqsQueue, names.queue, P),
    named("dead-letter queue", NameKind.SqsQueue, names.deadLetterQueue, P),
    named("ledger table", NameKind.DynamoDbTable, names.ledgerTable, P),
    named("idempotency table", NameKind.DynamoDbTable, names.idempotencyTable, P),
    named("function", NameKind.LambdaFunction, names.functionName, PF),
    named("function role", NameKind.IamRole, names.functionRole, PF),
    named("function log group", NameKind.LogGroup, names.functionLogGroup, PF),
    named("state machine", NameKind.StateMachine, names.stateMachine, P),
    named("workflow role", NameKind.IamRole, names.workflowRole, P),
    named("workflow log group", NameKind.LogGroup, names.workflowLogGroup, P),
    named("pipe", NameKind.Pipe, names.pipe, P),
    named("pipe role", NameKind.IamRole, names.pipeRole, P),
    named("pipe log group", NameKind.LogGroup, names.pipeLogGroup, P),
    named("role policies", NameKind.IamRolePolicy, ROLE_POLICY_NAME, []),
    named("dashboard", NameKind.Dashboard, names.dashboard, P),
    named("alarm topic", NameKind.SnsTopic, names.alarmTopic, P),
    named("DLQ keep-alive schedule", NameKind.Schedule, names.dlqKeepalive, P),
    named("DLQ keep-alive role", NameKind.IamRole, names.dlqKeepaliveRole, P),
    ...ALARM_IDS.map((id) => named(`alarm ${id}`, NameKind.Alarm, alarm(id), P)),
  ];
  return { ...names, alarm, all };
}

/** The function's name alone (resolve-props.ts reads it for every props it resolves, without the other names). */
export function functionResourceName(namePrefix: string, functionName: string): string {
  return `${namePrefix}-${functionName}`;
}

/** The effect journal's table (`EffectJournalTable`), named after its own prefix. */
export function effectJournalTableName(namePrefix: string): string {
  return `${namePrefix}-effects`;
}
