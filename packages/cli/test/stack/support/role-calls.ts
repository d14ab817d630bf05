/**
 * The calls each role of a synthesized stack makes, derived from what uses the role, never listed by hand:
 * - the workflow's role: every Task state of the definition (service integration → IAM action, on the resource its
 *   Arguments name), plus log delivery when logging is on and X-Ray when tracing is on (AWS's documented needs);
 * - the pipe's role: its source queue (receive, delete, read attributes), its target (StartSyncExecution for
 *   REQUEST_RESPONSE, StartExecution otherwise) and the log streams of a CloudWatch Logs destination;
 * - the function's role: the DynamoDB commands of the code behind each table variable (read from the code itself),
 *   the log streams of its log group, X-Ray when tracing is active.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { referencesIn, type Block, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { ContractEnv } from "@effectively-once/contract";
import { EFFECTS_TABLE_ENV } from "@effectively-once/contract";
import { arnOf, type ArnEnv } from "@effectively-once/local-cloud/terraform-json";
import type { IamCall } from "../../support/iam-simulator";
import { resolveBlock, resolveText } from "../../../src/iam/stack-values";

/** AWS: a state machine that logs to CloudWatch Logs needs these on "*" (vended logs; no resource-level permissions). */
export const SFN_LOG_DELIVERY = ["CreateLogDelivery", "GetLogDelivery", "UpdateLogDelivery", "DeleteLogDelivery", "ListLogDeliveries", "PutResourcePolicy", "DescribeResourcePolicies", "DescribeLogGroups"].map((a) => `logs:${a}`);
const SFN_XRAY = ["PutTraceSegments", "PutTelemetryRecords", "GetSamplingRules", "GetSamplingTargets"].map((a) => `xray:${a}`);
const LAMBDA_XRAY = ["PutTraceSegments", "PutTelemetryRecords"].map((a) => `xray:${a}`);
const WRITE_LOGS = ["logs:CreateLogStream", "logs:PutLogEvents"];

export interface RoleCalls {
  /** The role's resource address (`aws_iam_role.x`). */
  readonly role: string;
  readonly usedBy: string;
  readonly calls: IamCall[];
}

const root = join(__dirname, "..", "..", "..", "..", "..");

/**
 * The DynamoDB actions of a file's SDK commands, read from the code: `GetItemCommand` (client-dynamodb) and
 * `GetCommand` (lib-dynamodb's document client) both call GetItem.
 */
function dynamoActionsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(GetItem|PutItem|UpdateItem|DeleteItem|Query|Scan|BatchGetItem|BatchWriteItem|TransactGetItems|TransactWriteItems)Command\b/g)) names.add(`dynamodb:${m[1]}`);
  for (const m of text.matchAll(/\b(Get|Put|Update|Delete)Command\b/g)) names.add(`dynamodb:${m[1]}Item`);
  if (names.size === 0) throw new Error(`${file}: found no DynamoDB command; the derivation of the function's calls needs updating`);
  return [...names].sort();
}

/** Which code uses the table each function variable names. */
const TABLE_VARIABLES: readonly (readonly [string, string])[] = [
  [ContractEnv.IdempotencyTableName, "node_modules/@aws-lambda-powertools/idempotency/lib/cjs/persistence/DynamoDBPersistenceLayer.js"],
  [EFFECTS_TABLE_ENV, "functions/src/effect-journal.ts"],
];

/** `dynamodb:putItem` → `dynamodb:PutItem`; lambda:invoke is InvokeFunction. */
function integrationAction(resource: string): string | undefined {
  const m = /^arn:[^:]+:states:::(?:aws-sdk:)?([a-z0-9]+):([A-Za-z]+)(?:\.\w+)?$/.exec(resource);
  if (!m) return undefined;
  const [, service, api] = m;
  if (service === "lambda" && api === "invoke") return "lambda:InvokeFunction";
  // AWS SDK integrations name the SDK's service (`cloudwatchlogs`); IAM's prefix is `logs`.
  if (service === "cloudwatchlogs") return `logs:${api[0].toUpperCase()}${api.slice(1)}`;
  return `${service}:${api[0].toUpperCase()}${api.slice(1)}`;
}

function taskResource(action: string, args: Record<string, unknown>, env: ArnEnv): string {
  const text = (k: string) => (typeof args[k] === "string" ? (args[k] as string) : undefined);
  const [service] = action.split(":");
  if (service === "dynamodb" && text("TableName")) return arnOf("aws_dynamodb_table", text("TableName")!, env)!;
  if (service === "lambda" && text("FunctionName")) {
    const fn = text("FunctionName")!;
    return fn.startsWith("arn:") ? fn : arnOf("aws_lambda_function", fn, env)!;
  }
  if (service === "sqs" && text("QueueUrl")) return arnOf("aws_sqs_queue", text("QueueUrl")!.split("/").at(-1)!, env)!;
  // PutLogEvents acts on the stream (CloudWatch Logs' permissions reference: a log-stream ARN).
  if (service === "logs" && text("LogGroupName") && text("LogStreamName")) return `${arnOf("aws_cloudwatch_log_group", text("LogGroupName")!, env)!}:log-stream:${text("LogStreamName")!}`;
  throw new Error(`cannot tell the resource of a ${action} task from its Arguments ${JSON.stringify(args).slice(0, 200)}`);
}

function tasks(states: Record<string, Block>): Block[] {
  return Object.values(states).flatMap((s) => [
    ...(s.Type === "Task" ? [s] : []),
    ...["ItemProcessor", "Iterator"].flatMap((k) => (s[k] ? tasks((s[k] as { States: Record<string, Block> }).States) : [])),
    ...((s.Branches as { States: Record<string, Block> }[] | undefined) ?? []).flatMap((b) => tasks(b.States)),
  ]);
}

/** A nested block written either as an object or as a one-element list. */
const one = (value: unknown): Record<string, unknown> | undefined => (Array.isArray(value) ? value[0] : value) as Record<string, unknown> | undefined;

function roleOf(block: Block, field: string, where: string): string {
  const ref = referencesIn({ [field]: block[field] }, where).find((r) => r.type === "aws_iam_role");
  if (!ref) throw new Error(`${where}.${field} names no role of the stack`);
  return ref.address;
}

export function roleCalls(stack: SynthesizedStack, env: ArnEnv): RoleCalls[] {
  const out: RoleCalls[] = [];
  const each = (type: string) => Object.entries(stack.resources[type] ?? {});
  for (const [name, raw] of each("aws_sfn_state_machine")) {
    const where = `aws_sfn_state_machine.${name}`;
    const definition = JSON.parse(resolveText(stack, raw.definition as string, env, `${where}.definition`)) as { States: Record<string, Block> };
    const calls: IamCall[] = tasks(definition.States).map((task) => {
      const action = integrationAction(String(task.Resource));
      if (!action) throw new Error(`${where}: task resource ${String(task.Resource)} is not a service integration this derivation knows`);
      return { action, resource: taskResource(action, (task.Arguments ?? {}) as Record<string, unknown>, env) };
    });
    const logging = one(raw.logging_configuration);
    if (logging && logging.level !== "OFF") calls.push(...SFN_LOG_DELIVERY.map((action) => ({ action, resource: "*" })));
    if (one(raw.tracing_configuration)?.enabled === true) calls.push(...SFN_XRAY.map((action) => ({ action, resource: "*" })));
    out.push({ role: roleOf(raw, "role_arn", where), usedBy: where, calls });
  }
  for (const [name, raw] of each("aws_pipes_pipe")) {
    const where = `aws_pipes_pipe.${name}`;
    const pipe = resolveBlock(stack, raw, env, where);
    const calls: IamCall[] = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"].map((action) => ({ action, resource: String(pipe.source) }));
    const invocation = one(one(pipe.target_parameters)?.step_function_state_machine_parameters)?.invocation_type;
    calls.push({ action: invocation === "REQUEST_RESPONSE" ? "states:StartSyncExecution" : "states:StartExecution", resource: String(pipe.target) });
    const logGroup = one(one(pipe.log_configuration)?.cloudwatch_logs_log_destination)?.log_group_arn;
    if (typeof logGroup === "string") calls.push(...WRITE_LOGS.map((action) => ({ action, resource: `${logGroup.replace(/:\*$/, "")}:log-stream:pipe` })));
    out.push({ role: roleOf(raw, "role_arn", where), usedBy: where, calls });
  }
  for (const [name, raw] of each("aws_lambda_function")) {
    const where = `aws_lambda_function.${name}`;
    const fn = resolveBlock(stack, raw, env, where);
    const variables = new Map(Object.entries((one(fn.environment)?.variables ?? {}) as Record<string, string>));
    const calls: IamCall[] = [];
    for (const [variable, code] of TABLE_VARIABLES) {
      const table = variables.get(variable);
      if (table) calls.push(...dynamoActionsOf(join(root, code)).map((action) => ({ action, resource: arnOf("aws_dynamodb_table", table, env)! })));
    }
    const group = (one(fn.logging_config)?.log_group as string | undefined) ?? `/aws/lambda/${String(fn.function_name)}`;
    calls.push(...WRITE_LOGS.map((action) => ({ action, resource: `${arnOf("aws_cloudwatch_log_group", group, env)}:log-stream:2026/12/02/[$LATEST]0123` })));
    if (one(fn.tracing_config)?.mode === "Active") calls.push(...LAMBDA_XRAY.map((action) => ({ action, resource: "*" })));
    out.push({ role: roleOf(raw, "role", where), usedBy: where, calls });
  }
  return out;
}

/** The inline policies of a role, evaluated in `env`. */
export function rolePolicies(stack: SynthesizedStack, role: string, env: ArnEnv): { Version: "2012-10-17"; Statement: Record<string, unknown>[] }[] {
  return Object.entries(stack.resources.aws_iam_role_policy ?? {})
    .filter(([, p]) => referencesIn({ role: p.role }, "role").some((r) => r.address === role))
    .map(([name, p]) => JSON.parse(resolveText(stack, p.policy as string, env, `aws_iam_role_policy.${name}.policy`)));
}
