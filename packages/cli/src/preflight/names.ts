import { arnOf, type ArnEnv, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { nameOf } from "../iam/stack-values";

/** The kinds of name the preflight looks up, one read-only call each (aws-names.ts). */
export const NameType = {
  Role: "IAM role",
  Queue: "SQS queue",
  Table: "DynamoDB table",
  Dashboard: "CloudWatch dashboard",
  LogGroup: "CloudWatch Logs log group",
  Function: "Lambda function",
  StateMachine: "Step Functions state machine",
  Pipe: "EventBridge pipe",
} as const;
export type NameType = (typeof NameType)[keyof typeof NameType];

/** Terraform resource type → the kind of its name, and the call that finds it. */
const TYPES: ReadonlyMap<string, { kind: NameType; action: string }> = new Map([
  ["aws_iam_role", { kind: NameType.Role, action: "iam:GetRole" }],
  ["aws_sqs_queue", { kind: NameType.Queue, action: "sqs:GetQueueUrl" }],
  ["aws_dynamodb_table", { kind: NameType.Table, action: "dynamodb:DescribeTable" }],
  ["aws_cloudwatch_dashboard", { kind: NameType.Dashboard, action: "cloudwatch:GetDashboard" }],
  ["aws_cloudwatch_log_group", { kind: NameType.LogGroup, action: "logs:DescribeLogGroups" }],
  ["aws_lambda_function", { kind: NameType.Function, action: "lambda:GetFunction" }],
  ["aws_sfn_state_machine", { kind: NameType.StateMachine, action: "states:DescribeStateMachine" }],
  ["aws_pipes_pipe", { kind: NameType.Pipe, action: "pipes:DescribePipe" }],
]);

/** IAM role names and dashboards are unique per account; the other kinds per region. */
export const ACCOUNT_WIDE: ReadonlySet<NameType> = new Set([NameType.Role, NameType.Dashboard]);

export interface StackName {
  /** The Terraform address: `aws_iam_role.pipeline_pipe_role_…`. */
  readonly address: string;
  readonly type: string;
  readonly kind: NameType;
  readonly name: string;
  readonly arn: string;
  readonly action: string;
}

/** Every name the stack creates, evaluated in `env` (a name may read data "aws_region": the names carry the region). */
export function stackNames(stack: SynthesizedStack, env: ArnEnv): StackName[] {
  const out: StackName[] = [];
  for (const [type, blocks] of Object.entries(stack.resources)) {
    const known = TYPES.get(type);
    if (!known) continue;
    for (const id of Object.keys(blocks)) {
      const name = nameOf(stack, type, id, env);
      if (name !== undefined) out.push({ address: `${type}.${id}`, type, kind: known.kind, name, arn: arnOf(type, name, env) ?? name, action: known.action });
    }
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

/** The call that looks a name up, for the --dry-run list. */
export function lookupAction(type: string): string | undefined {
  return TYPES.get(type)?.action;
}

/**
 * The names a Terraform state already holds (a raw `terraform.tfstate`, version 4): those are the stack's own on a
 * re-deploy, not clashes. Returns `<type> <name>` keys.
 */
export function namesInState(state: unknown): Set<string> {
  const owned = new Set<string>();
  const resources = (state as { resources?: unknown }).resources;
  if (!Array.isArray(resources)) throw new Error("not a Terraform state (version 4): no resources list");
  for (const r of resources as { mode?: string; type?: string; instances?: { attributes?: Record<string, unknown> }[] }[]) {
    if (r.mode !== "managed" || !r.type || !TYPES.has(r.type)) continue;
    for (const instance of r.instances ?? []) {
      const a = instance.attributes ?? {};
      const name = [a.name, a.function_name, a.dashboard_name].find((v) => typeof v === "string");
      if (typeof name === "string") owned.add(`${r.type} ${name}`);
    }
  }
  return owned;
}
