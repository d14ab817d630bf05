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

export function assumeRolePolicy(service: string): string {
  return JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }],
  });
}
