/**
 * Each role's policy, held by the offline IAM simulator to exactly the calls that role makes (derived from the
 * definition's Task states and the pipe's and function's configuration, support/role-calls.ts): every call allowed,
 * and every other action AWS lists for the same services denied, on the role's resources and on their neighbours
 * (the stack's other tables, queues, functions, log groups, and one resource of each type outside the stack).
 */
import { parseStack, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { actionScopes, type ActionScope } from "../../src/iam/action-resources";
import { arnOf, type ArnEnv } from "@effectively-once/local-cloud/terraform-json";
import { simulate, type IamCall } from "../support/iam-simulator";
import { nameOf } from "../../src/iam/stack-values";
import { synthStack } from "@effectively-once/testing/stack";
import { roleCalls, rolePolicies, type RoleCalls } from "./support/role-calls";

const env: ArnEnv = { partition: "aws", account: "111122223333", region: "us-east-1" };

/** Every ARN the roles could reach for: the stack's resources of the types the roles use, log streams, and outsiders. */
function neighbours(stack: SynthesizedStack, calls: readonly IamCall[]): string[] {
  const out = new Set<string>(calls.map((c) => c.resource).filter((r) => r !== "*"));
  for (const type of ["aws_sqs_queue", "aws_dynamodb_table", "aws_lambda_function", "aws_sfn_state_machine", "aws_cloudwatch_log_group", "aws_pipes_pipe"]) {
    for (const name of Object.keys(stack.resources[type] ?? {})) {
      const arn = arnOf(type, nameOf(stack, type, name, env)!, env)!;
      out.add(arn);
      if (type === "aws_cloudwatch_log_group") out.add(`${arn}:log-stream:s`);
    }
    out.add(arnOf(type, "someone-elses", env)!);
  }
  out.add(`${arnOf("aws_cloudwatch_log_group", "someone-elses", env)}:log-stream:s`);
  return [...out];
}

const key = (c: IamCall) => `${c.action} ${c.resource}`;

async function check(stack: SynthesizedStack, role: RoleCalls): Promise<{ unexpected: string[]; checked: number }> {
  const policies = rolePolicies(stack, role.role, env);
  const allowed = new Set(role.calls.map(key));
  const principal = { arn: arnOf("aws_iam_role", nameOf(stack, "aws_iam_role", role.role.split(".")[1], env)!, env)!, account: env.account };
  const unexpected: string[] = [];
  let checked = 0;
  for (const call of role.calls) {
    checked++;
    if ((await simulate(policies, call, principal)) !== "Allowed") unexpected.push(`DENIED ${key(call)} (the role makes this call)`);
  }
  const services = new Set(role.calls.map((c) => c.action.split(":")[0]));
  const targets = neighbours(stack, role.calls);
  for (const service of services) {
    const scopes: ActionScope[] = await actionScopes(service);
    for (const scope of scopes) {
      const resources = scope.wildcardOnly ? ["*"] : targets.filter((arn) => scope.accepts(arn));
      for (const resource of resources) {
        const call = { action: scope.action, resource };
        if (allowed.has(key(call))) continue;
        // A log stream's calls are granted on the group's streams (`group:*`): any stream of that group is the same call.
        if (role.calls.some((c) => c.action === call.action && c.resource.includes(":log-stream:") && resource.startsWith(c.resource.split(":log-stream:")[0] + ":log-stream:"))) continue;
        checked++;
        if ((await simulate(policies, call, principal)) === "Allowed") unexpected.push(`ALLOWED ${key(call)} (the role never makes this call)`);
      }
    }
  }
  return { unexpected, checked };
}

describe("IAM least privilege, simulated: each role allows exactly the calls it makes", () => {
  let stack: SynthesizedStack;
  let roles: RoleCalls[];
  beforeAll(() => {
    const synthesized = synthStack();
    try {
      stack = parseStack(synthesized.json, "synthesized");
    } finally {
      synthesized.cleanup();
    }
    roles = roleCalls(stack, env);
  });

  it("derives one role each for the workflow, the pipe and the function, and what they call", () => {
    const by = new Map(roles.map((r) => [r.usedBy.split(".")[0], r]));
    expect([...by.keys()].sort()).toEqual(["aws_lambda_function", "aws_pipes_pipe", "aws_sfn_state_machine"]);
    expect(new Set(by.get("aws_sfn_state_machine")!.calls.map((c) => c.action))).toEqual(
      // logs:PutLogEvents: the fate metrics Task, on the workflow log group's fate-metrics stream.
      new Set(["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "lambda:InvokeFunction", "sqs:SendMessage", "logs:PutLogEvents",
        "logs:CreateLogDelivery", "logs:GetLogDelivery", "logs:UpdateLogDelivery", "logs:DeleteLogDelivery", "logs:ListLogDeliveries", "logs:PutResourcePolicy", "logs:DescribeResourcePolicies", "logs:DescribeLogGroups",
        "xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules", "xray:GetSamplingTargets"]),
    );
    expect(by.get("aws_pipes_pipe")!.calls.map((c) => c.action)).toEqual(expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "states:StartSyncExecution"]));
  });

  it.each(["aws_sfn_state_machine", "aws_pipes_pipe", "aws_lambda_function"])("the role of %s: every call it makes is allowed, nothing else of those services", async (usedBy) => {
    const role = roles.find((r) => r.usedBy.startsWith(`${usedBy}.`))!;
    const { unexpected, checked } = await check(stack, role);
    expect(unexpected).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it("a pipe that logs to CloudWatch Logs makes its role write that group's streams (picked up from the pipe's log configuration)", () => {
    const [[name, pipe]] = Object.entries(stack.resources.aws_pipes_pipe);
    const [[groupName]] = Object.entries(stack.resources.aws_cloudwatch_log_group);
    const logged = parseStack({ resource: { ...stack.resources, aws_pipes_pipe: { [name]: { ...pipe, log_configuration: { level: "ERROR", cloudwatch_logs_log_destination: { log_group_arn: `\${aws_cloudwatch_log_group.${groupName}.arn}` } } } } }, data: stack.data, provider: stack.providers, terraform: stack.terraform }, "with pipe logs");
    const calls = roleCalls(logged, env).find((r) => r.usedBy.startsWith("aws_pipes_pipe."))!.calls;
    expect(calls.filter((c) => c.action.startsWith("logs:")).map((c) => c.action)).toEqual(["logs:CreateLogStream", "logs:PutLogEvents"]);
  });
});
