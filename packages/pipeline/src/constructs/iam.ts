import { DataAwsCallerIdentity } from "@cdktf/provider-aws/lib/data-aws-caller-identity";
import { DataAwsPartition } from "@cdktf/provider-aws/lib/data-aws-partition";
import type { Construct } from "constructs";
import type { PolicyStatement } from "./props";

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

/** A policy document as a JSON string; tokens inside stay Terraform references, so no `jsonencode` is needed. */
export function policyJson(statements: readonly PolicyStatement[]): string {
  return JSON.stringify({ Version: "2012-10-17", Statement: statements });
}

/**
 * Partition, region and account of this stack: the account from `data "aws_caller_identity"` (read while
 * planning, so the plan review shows the trust conditions; an offline plan answers it locally), the partition from
 * `data "aws_partition"`, the region the provider is configured with. No account id or region is written into
 * the code.
 */
export interface StackArnScope {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
}

export function stackArnScope(scope: Construct, region: string): StackArnScope {
  const caller = new DataAwsCallerIdentity(scope, "caller");
  const partition = new DataAwsPartition(scope, "partition");
  return { partition: partition.partition, region, account: caller.accountId };
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
 * - Step Functions: `aws:SourceAccount` and `aws:SourceArn` ArnLike `arn:…:states:<region>:<account>:stateMachine:*`;
 * - Lambda execution roles: `aws:SourceAccount` (Lambda documents no `aws:SourceArn` for the execution role).
 */
export const trustedService = {
  pipes: (s: StackArnScope, pipeName: string): TrustedService => ({
    service: "pipes.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account, "aws:SourceArn": `arn:${s.partition}:pipes:${s.region}:${s.account}:pipe/${pipeName}` } },
  }),
  states: (s: StackArnScope): TrustedService => ({
    service: "states.amazonaws.com",
    conditions: { StringEquals: { "aws:SourceAccount": s.account }, ArnLike: { "aws:SourceArn": `arn:${s.partition}:states:${s.region}:${s.account}:stateMachine:*` } },
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
