import type { PolicyStatement } from "./function-props";
import type { StackArnScope } from "./stack-data";

/**
 * Actions AWS documents as supporting no resource-level permissions, so they need `Resource: "*"`.
 * They are the only wildcards the stack may contain (the IAM tests name each one).
 */
export const LOG_DELIVERY_ACTIONS = [
  "logs:CreateLogDelivery",
  "logs:GetLogDelivery",
  "logs:UpdateLogDelivery",
  "logs:DeleteLogDelivery",
  "logs:ListLogDeliveries",
  "logs:PutResourcePolicy",
  "logs:DescribeResourcePolicies",
  "logs:DescribeLogGroups",
] as const;

export const XRAY_ACTIONS = ["xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules", "xray:GetSamplingTargets"] as const;

/**
 * The function role's inline policy: its own log group, its idempotency table, the team's `function.policyStatements`,
 * X-Ray when tracing. One list for the construct and for the rule that measures it against IAM's role policy quota
 * (pass-through-rules.ts), which passes estimated ARNs where the construct passes Terraform references.
 */
export function functionPolicyStatements(p: { readonly tracing: boolean; readonly function: { readonly policyStatements: readonly PolicyStatement[] } }, arns: { readonly logGroup: string; readonly idempotencyTable: string }): PolicyStatement[] {
  return [
    { Sid: "WriteOwnLogs", Effect: "Allow", Action: ["logs:CreateLogStream", "logs:PutLogEvents"], Resource: [`${arns.logGroup}:*`] },
    {
      Sid: "IdempotencyRecords",
      Effect: "Allow",
      Action: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
      Resource: [arns.idempotencyTable],
    },
    ...p.function.policyStatements,
    ...(p.tracing ? [{ Sid: "Tracing", Effect: "Allow" as const, Action: XRAY_ACTIONS.slice(0, 2), Resource: ["*"] }] : []),
  ];
}

/** A policy document as a JSON string; tokens inside stay Terraform references, so no `jsonencode` is needed. */
export function policyJson(statements: readonly PolicyStatement[]): string {
  return JSON.stringify({ Version: "2012-10-17", Statement: statements });
}

/** Which caller may assume a role: the service, and the confused-deputy conditions AWS documents for it. */
interface TrustedService {
  readonly service: string;
  readonly conditions: Record<string, Record<string, string>>;
}

/**
 * The role may be assumed by the service only on behalf of this account (and, where the service sets it, this
 * resource): AWS's confused-deputy guidance. What each service documents for its role's trust policy:
 * - EventBridge Pipes: `aws:SourceAccount` and `aws:SourceArn` = the pipe's ARN (the pipe's name is known
 *   before the pipe exists, so no reference cycle);
 * - Step Functions: `aws:SourceAccount` and `aws:SourceArn` = the state machine's ARN (its name is known at synth;
 *   AWS's "Prevent cross-service confused deputy issue" in the Step Functions guide, procedure-create-iam-role.html);
 * - Lambda execution roles: `aws:SourceAccount` (Lambda documents no `aws:SourceArn` for the execution role);
 * - EventBridge Scheduler: `aws:SourceAccount` and `aws:SourceArn` = the schedule's ARN.
 */
export const trustedService = {
  pipes: (s: StackArnScope, pipeName: string): TrustedService => ({
    service: "pipes.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account, "aws:SourceArn": `arn:${s.partition}:pipes:${s.region}:${s.account}:pipe/${pipeName}` } },
  }),
  states: (s: StackArnScope, stateMachineName: string): TrustedService => ({
    service: "states.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account, "aws:SourceArn": `arn:${s.partition}:states:${s.region}:${s.account}:stateMachine:${stateMachineName}` } },
  }),
  // EventBridge Scheduler: `aws:SourceAccount`, and `aws:SourceArn` = the schedule's ARN (Scheduler User Guide,
  // "Set up the execution role", confused deputy); the default group holds the schedule.
  scheduler: (s: StackArnScope, scheduleName: string): TrustedService => ({
    service: "scheduler.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account, "aws:SourceArn": `arn:${s.partition}:scheduler:${s.region}:${s.account}:schedule/default/${scheduleName}` } },
  }),
  lambda: (s: StackArnScope): TrustedService => ({
    service: "lambda.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account } },
  }),
};

export function assumeRolePolicy(trusted: TrustedService): string {
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: trusted.service }, Action: "sts:AssumeRole", Condition: trusted.conditions }],
  });
}
