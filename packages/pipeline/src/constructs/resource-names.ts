/**
 * The name of every AWS resource the pipeline creates, derived from `namePrefix` and `function.name`: the one place
 * they are spelled, read by the parts that create the resources and by the rules that hold each name to its service's
 * limits (aws-name-rules.ts).
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

/** One resource name, the kind of name it is, and the props it is built from. */
export interface ResourceName {
  readonly resource: string;
  readonly kind: NameKind;
  readonly name: string;
  /** The props the name is built from: `namePrefix`, and `function.name` for the function's resources. */
  readonly props: readonly ("namePrefix" | "function.name")[];
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
  /** The schedule that keeps the DLQ active (dlq-keepalive.ts), and its role. */
  readonly dlqKeepalive: string;
  readonly dlqKeepaliveRole: string;
  alarm(id: AlarmId): string;
  /** Every name above (and each alarm's) with its kind, for the name rules. */
  readonly all: readonly ResourceName[];
}

export function pipelineResourceNames(p: { readonly namePrefix: string; readonly fifo?: boolean; readonly function: { readonly name: string } }): PipelineResourceNames {
  const prefix = p.namePrefix;
  // SQS requires a FIFO queue's name to end in `.fifo` (contract/fifo.ts).
  const queueSuffix = p.fifo ? FIFO_SUFFIX : "";
  const functionName = `${prefix}-${p.function.name}`;
  const stateMachine = `${prefix}-workflow`;
  const pipe = `${prefix}-pipe`;
  const alarm = (id: AlarmId) => `${prefix}-${id}`;
  const names = {
    queue: `${prefix}-queue${queueSuffix}`,
    deadLetterQueue: `${prefix}-dlq${queueSuffix}`,
    ledgerTable: `${prefix}-ledger`,
    idempotencyTable: `${prefix}-idempotency`,
    functionName,
    functionRole: `${functionName}-role`,
    functionLogGroup: `/aws/lambda/${functionName}`,
    stateMachine,
    workflowRole: `${stateMachine}-role`,
    // The /aws/vendedlogs/ prefix keeps CloudWatch's resource policy small when many services deliver logs.
    workflowLogGroup: `/aws/vendedlogs/states/${stateMachine}`,
    pipe,
    pipeRole: `${pipe}-role`,
    pipeLogGroup: `/aws/vendedlogs/pipes/${pipe}`,
    dashboard: `${prefix}-pipeline`,
    alarmTopic: `${prefix}-alarms`,
    dlqKeepalive: `${prefix}-dlq-keepalive`,
    dlqKeepaliveRole: `${prefix}-dlq-keepalive-role`,
  };
  const P = ["namePrefix"] as const;
  const PF = ["namePrefix", "function.name"] as const;
  const all: ResourceName[] = [
    { resource: "source queue", kind: NameKind.SqsQueue, name: names.queue, props: P },
    { resource: "dead-letter queue", kind: NameKind.SqsQueue, name: names.deadLetterQueue, props: P },
    { resource: "ledger table", kind: NameKind.DynamoDbTable, name: names.ledgerTable, props: P },
    { resource: "idempotency table", kind: NameKind.DynamoDbTable, name: names.idempotencyTable, props: P },
    { resource: "function", kind: NameKind.LambdaFunction, name: names.functionName, props: PF },
    { resource: "function role", kind: NameKind.IamRole, name: names.functionRole, props: PF },
    { resource: "function log group", kind: NameKind.LogGroup, name: names.functionLogGroup, props: PF },
    { resource: "state machine", kind: NameKind.StateMachine, name: names.stateMachine, props: P },
    { resource: "workflow role", kind: NameKind.IamRole, name: names.workflowRole, props: P },
    { resource: "workflow log group", kind: NameKind.LogGroup, name: names.workflowLogGroup, props: P },
    { resource: "pipe", kind: NameKind.Pipe, name: names.pipe, props: P },
    { resource: "pipe role", kind: NameKind.IamRole, name: names.pipeRole, props: P },
    { resource: "pipe log group", kind: NameKind.LogGroup, name: names.pipeLogGroup, props: P },
    { resource: "role policies", kind: NameKind.IamRolePolicy, name: ROLE_POLICY_NAME, props: [] },
    { resource: "dashboard", kind: NameKind.Dashboard, name: names.dashboard, props: P },
    { resource: "alarm topic", kind: NameKind.SnsTopic, name: names.alarmTopic, props: P },
    { resource: "DLQ keep-alive schedule", kind: NameKind.Schedule, name: names.dlqKeepalive, props: P },
    { resource: "DLQ keep-alive role", kind: NameKind.IamRole, name: names.dlqKeepaliveRole, props: P },
    ...ALARM_IDS.map((id): ResourceName => ({ resource: `alarm ${id}`, kind: NameKind.Alarm, name: alarm(id), props: P })),
  ];
  return { ...names, alarm, all };
}

/** The effect journal's table (`EffectJournalTable`), named after its own prefix. */
export function effectJournalTableName(namePrefix: string): string {
  return `${namePrefix}-effects`;
}
