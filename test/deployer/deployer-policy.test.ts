import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseStack, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { runDeployerPolicyCli } from "../../tools/deployer/cli";
import { DeployerPolicyError, deployerPolicy, MANAGED_POLICY_LIMIT, type DeployerPolicy } from "../../tools/deployer/policy";
import { simulate, type IamCall, type PolicyDocument } from "../../tools/iam/simulate";
import type { CallRecording } from "../../tools/terraform/rehearse/record-calls";
import { synthStack as synthJson, TEST_STACK } from "@effectively-once/testing";

/** The calls the deploy rehearsal recorded (plan, apply, re-plan, change, teardown, destroy) against moto. */
const recording = JSON.parse(readFileSync(join(__dirname, "fixtures", "rehearsal-calls.json"), "utf8")) as CallRecording;
const env = { partition: "aws", account: recording.account, region: recording.region };
const principal = { arn: `arn:aws:iam::${recording.account}:role/deployer`, account: recording.account };
const roleArn = (name: string) => `arn:aws:iam::${recording.account}:role/${name}`;

/** The stack the recording was made from: the default app with the default prefix (`payments`). */
function synth(mutate?: (json: Record<string, any>) => void): SynthesizedStack {
  const s = synthJson({}, { ...TEST_STACK, stackName: recording.stack, namePrefix: "payments", region: recording.region });
  try {
    mutate?.(s.json as unknown as Record<string, any>);
    return parseStack(s.json, "synthesized");
  } finally {
    s.cleanup();
  }
}

describe("Generator: the deployer policy of the synthesized stack", () => {
  let stack: SynthesizedStack;
  let generated: DeployerPolicy;
  beforeAll(async () => {
    stack = synth();
    generated = await deployerPolicy(stack, env);
  });

  it("allows every call the rehearsal recorded, in every step (simulated offline)", async () => {
    expect(recording.calls.length).toBeGreaterThan(100);
    const denied: string[] = [];
    for (const call of recording.calls) {
      if ((await simulate([generated.policy], call, principal)) !== "Allowed") denied.push(`${call.phase}: ${call.action} on ${call.resource}`);
    }
    expect(denied).toEqual([]);
    expect(new Set(recording.calls.map((c) => c.phase))).toEqual(new Set(["plan", "apply", "replan", "change plan", "change apply", "teardown apply", "destroy"]));
  });

  it("scopes every statement to the stack's own ARNs, `*` only for actions AWS documents without resource-level permissions", () => {
    for (const statement of generated.policy.Statement) {
      for (const resource of statement.Resource as string[]) {
        if (resource === "*") expect(statement.Sid).toBe("NoResourceLevelPermissions");
        else expect(resource).toMatch(new RegExp(`^arn:aws:[a-z0-9-]+:(us-east-1)?:${recording.account}:([a-zA-Z-]+[:/])?(/aws/[\\w/]+/)?(schedule/default/)?payments-`));
      }
    }
    expect(generated.wildcardActions).toEqual(expect.arrayContaining(["logs:DescribeLogGroups", "states:ValidateStateMachineDefinition"]));
    expect(generated.size).toBeLessThanOrEqual(MANAGED_POLICY_LIMIT);
  });

  describe("denies escalation through the deploy", () => {
    const attempts: [string, IamCall][] = [
      ["passing a stack role to another service", { action: "iam:PassRole", resource: roleArn("payments-pipe-role"), context: [["iam:PassedToService", "lambda.amazonaws.com"]] }],
      ["passing a role that is not the stack's", { action: "iam:PassRole", resource: roleArn("admin"), context: [["iam:PassedToService", "states.amazonaws.com"]] }],
      ["passing a stack role with no service named", { action: "iam:PassRole", resource: roleArn("payments-charge-role") }],
      ["attaching AdministratorAccess to a stack role", { action: "iam:AttachRolePolicy", resource: roleArn("payments-charge-role"), context: [["iam:PolicyARN", "arn:aws:iam::aws:policy/AdministratorAccess"]] }],
      ["creating a role outside the stack", { action: "iam:CreateRole", resource: roleArn("payments-charge-role-2") }],
      ["writing an inline policy into another role", { action: "iam:PutRolePolicy", resource: roleArn("deployer") }],
      ["assuming a stack role after rewriting its trust", { action: "sts:AssumeRole", resource: roleArn("payments-workflow-role") }],
      ["creating a user or an access key", { action: "iam:CreateAccessKey", resource: `arn:aws:iam::${recording.account}:user/deployer` }],
      ["reading the ledger's items", { action: "dynamodb:Scan", resource: `arn:aws:dynamodb:us-east-1:${recording.account}:table/payments-ledger` }],
      ["purging the source queue", { action: "sqs:PurgeQueue", resource: `arn:aws:sqs:us-east-1:${recording.account}:payments-queue` }],
      ["deleting another team's table", { action: "dynamodb:DeleteTable", resource: `arn:aws:dynamodb:us-east-1:${recording.account}:table/orders` }],
    ];
    it.each(attempts)("%s", async (_what, call) => {
      expect(await simulate([generated.policy], call, principal)).not.toBe("Allowed");
    });
  });

  it("with a permissions boundary on the stack's roles: roles and their policies only with it, and it cannot be removed", async () => {
    const boundary = `arn:aws:iam::${recording.account}:policy/payments-boundary`;
    const bounded = await deployerPolicy(synth((json) => { for (const role of Object.values(json.resource.aws_iam_role)) (role as Record<string, unknown>).permissions_boundary = boundary; }), env);
    const role = roleArn("payments-workflow-role");
    const withIt: [string, string][] = [["iam:PermissionsBoundary", boundary]];
    expect(await simulate([bounded.policy], { action: "iam:CreateRole", resource: role, context: withIt }, principal)).toBe("Allowed");
    expect(await simulate([bounded.policy], { action: "iam:CreateRole", resource: role }, principal)).not.toBe("Allowed");
    expect(await simulate([bounded.policy], { action: "iam:PutRolePolicy", resource: role, context: [["iam:PermissionsBoundary", "arn:aws:iam::aws:policy/AdministratorAccess"]] }, principal)).not.toBe("Allowed");
    expect(await simulate([bounded.policy], { action: "iam:DeleteRolePermissionsBoundary", resource: role }, principal)).toBe("ExplicitlyDenied");
  });

  it("refuses a resource type it has no actions for, naming the type and the fix", async () => {
    const other = synth((json) => (json.resource.aws_sns_topic_subscription = { pager: { topic_arn: "arn:aws:sns:us-east-1:123456789012:payments-alarms" } }));
    await expect(deployerPolicy(other, env)).rejects.toThrow(new DeployerPolicyError("aws_sns_topic_subscription.pager: resource type aws_sns_topic_subscription has no row in tools/deployer/resource-actions.ts; add the actions hashicorp/aws calls for it, then re-record the calls (npm run rehearse -- --record-calls test/deployer/fixtures/rehearsal-calls.json)"));
  });
});

/** What the recording says about the plan: the provider validates a changed definition while planning. */
describe("Recording: what cdktf deploy calls", () => {
  it("includes iam:PassRole of each role to its own service and states:ValidateStateMachineDefinition", () => {
    const passes = recording.calls.filter((c) => c.action === "iam:PassRole").map((c) => `${c.resource.split("/").pop()} → ${c.context?.[0][1]}`);
    expect(new Set(passes)).toEqual(new Set(["payments-workflow-role → states.amazonaws.com", "payments-pipe-role → pipes.amazonaws.com", "payments-charge-role → lambda.amazonaws.com"]));
    expect(recording.calls.some((c) => c.action === "states:ValidateStateMachineDefinition")).toBe(true);
    // Every request was named: a request the recorder could not identify would be a call nobody checked.
    expect(recording.calls.filter((c) => c.action.includes("UNKNOWN"))).toEqual([]);
  });
});

describe("CLI: npm run deployer-policy", () => {
  const run = async (argv: string[]) => {
    let stdout = "";
    const stderr: string[] = [];
    const code = await runDeployerPolicyCli(argv, { env: { PIPELINE_NAME_PREFIX: "payments" }, stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l) });
    return { code, stdout, stderr: stderr.join("\n") };
  };

  it("prints the policy for an account, with its size against IAM's limit and the wildcard actions named", async () => {
    const { code, stdout, stderr } = await run(["--account", "111122223333"]);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as PolicyDocument).Statement.length).toBeGreaterThan(5);
    expect(stdout).toContain("arn:aws:iam::111122223333:role/payments-pipe-role");
    expect(stderr).toMatch(/\d+ statements, \d+ of IAM's 6144 characters/);
    expect(stderr).toContain('on "*" (AWS documents no resource-level permissions for them): logs:DescribeLogGroups, states:ValidateStateMachineDefinition');
  });

  it("refuses an account id that is not 12 digits", async () => {
    expect(await run(["--account", "12345"])).toMatchObject({ code: 2, stderr: "deployer-policy: --account 12345: an AWS account id is 12 digits" });
  });
});
