import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, S3Backend } from "cdktf";
import { IdempotentPipeline } from "@effectively-once/pipeline";
import { loadApp } from "@effectively-once/local-cloud/stack";
import { parseStack, readStack, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { runDeployerPolicyCli } from "../../src/deployer/cli";
import { DeployerPolicyError, deployerPolicy, MANAGED_POLICY_LIMIT, type DeployerPolicy } from "../../src/deployer/policy";
import { RECORDED_PROVIDER_VERSION } from "../../src/deployer/provider-version";
import { TEARDOWN_ACTIONS } from "../../src/deployer/resource-actions";
import { policySize } from "../../src/deployer/split";
import { simulate, type IamCall, type PolicyDocument } from "../support/iam-simulator";
import type { CallRecording } from "../../src/terraform/rehearse/record-calls";
import { TEST_APP, TEST_STACK } from "@effectively-once/testing";
import { synthStack as synthJson } from "@effectively-once/testing/stack";

/** The calls the deploy rehearsal recorded (plan, apply, re-plan, change, teardown, destroy) against moto. */
const recording = JSON.parse(readFileSync(join(__dirname, "fixtures", "rehearsal-calls.json"), "utf8")) as CallRecording;
const env = { partition: "aws", account: recording.account, region: recording.region };
const principal = { arn: `arn:aws:iam::${recording.account}:role/deployer`, account: recording.account };
const roleArn = (name: string) => `arn:aws:iam::${recording.account}:role/${name}`;
const TEARDOWN_PHASES = new Set(["teardown apply", "destroy"]);

/** The stack the recording was made from: the default app with the default prefix (`payments`). */
function synth(mutate?: (json: Record<string, any>) => void, overrides = {}): SynthesizedStack {
  const s = synthJson(overrides, { ...TEST_STACK, stackName: recording.stack, namePrefix: "payments", region: recording.region });
  try {
    mutate?.(s.json as unknown as Record<string, any>);
    return parseStack(s.json, "synthesized");
  } finally {
    s.cleanup();
  }
}

/**
 * The recorded stack with a second pipeline (`refunds`) beside the first and an S3 backend with a lock file: built
 * and synthesized by cdktf itself, as a team's app would.
 */
function synthTwoPipelines(): SynthesizedStack {
  const outdir = mkdtempSync(join(tmpdir(), "deployer-two-"));
  try {
    const app = new App({ outdir });
    const config = { ...TEST_STACK, stackName: recording.stack, namePrefix: "payments", region: recording.region };
    const stack = loadApp(TEST_APP).addStack(app, config);
    const first = stack.node.findAll().find((c): c is IdempotentPipeline => c instanceof IdempotentPipeline)!;
    new IdempotentPipeline(stack, "refunds", {
      namePrefix: "refunds",
      outputPrefix: "refunds_",
      businessKey: first.config.businessKey,
      payloadFields: first.config.payloadFields,
      function: { name: "refund", entry: first.config.function.entry },
    });
    // cdktf 0.21's S3BackendConfig has no `useLockfile` (CDK Terrain's has): the override docs/deploy.md shows.
    new S3Backend(stack, { bucket: "team-terraform-state", key: "pipelines/payments.tfstate", region: "us-east-1", encrypt: true });
    stack.addOverride("terraform.backend.s3.use_lockfile", true);
    app.synth();
    return readStack(join(outdir, "stacks", recording.stack, "cdk.tf.json"));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Whether every recorded call of the given phases is allowed by `policies`; the denied ones, named. */
async function deniedCalls(policies: readonly PolicyDocument[], phases: (phase: string) => boolean): Promise<string[]> {
  const denied: string[] = [];
  for (const call of recording.calls.filter((c) => phases(c.phase))) {
    if ((await simulate(policies, call, principal)) !== "Allowed") denied.push(`${call.phase}: ${call.action} on ${call.resource}`);
  }
  return denied;
}

describe("Generator: the deployer policy of the synthesized stack", () => {
  let stack: SynthesizedStack;
  let generated: DeployerPolicy;
  beforeAll(async () => {
    stack = synth();
    generated = await deployerPolicy(stack, env);
  });

  it("deploy set alone: allows every call the rehearsal recorded while deploying (plan, apply, re-plan, change)", async () => {
    expect(recording.calls.length).toBeGreaterThan(100);
    expect(await deniedCalls(generated.deploy, (phase) => !TEARDOWN_PHASES.has(phase))).toEqual([]);
    expect(new Set(recording.calls.map((c) => c.phase))).toEqual(new Set(["plan", "apply", "replan", "change plan", "change apply", "teardown apply", "destroy"]));
  });

  it("deploy and teardown sets together: allow every call the rehearsal recorded while tearing down", async () => {
    expect(await deniedCalls([...generated.deploy, ...generated.teardown], (phase) => TEARDOWN_PHASES.has(phase))).toEqual([]);
  });

  it("deploy set alone: denies every teardown call of the recording (protection off, deletes)", async () => {
    const teardownCalls = recording.calls.filter((c) => TEARDOWN_ACTIONS.has(c.action));
    expect(new Set(teardownCalls.map((c) => c.action))).toEqual(new Set(["dynamodb:UpdateTable", "dynamodb:DeleteTable", "sqs:DeleteQueue", "logs:DeleteLogGroup", "iam:DeleteRole", "iam:DeleteRolePolicy", "iam:ListInstanceProfilesForRole", "lambda:DeleteFunction", "states:DeleteStateMachine", "pipes:DeletePipe", "cloudwatch:DeleteAlarms", "cloudwatch:DeleteDashboards"]));
    const allowed: string[] = [];
    for (const call of teardownCalls) if ((await simulate(generated.deploy, call, principal)) === "Allowed") allowed.push(`${call.action} on ${call.resource}`);
    expect(allowed).toEqual([]);
    const teardownActions = generated.teardown.flatMap((d) => d.Statement.flatMap((st) => st.Action as string[]));
    expect(teardownActions.filter((a) => !TEARDOWN_ACTIONS.has(a))).toEqual([]);
  });

  it("scopes every statement to the stack's own ARNs, `*` only for actions AWS documents without resource-level permissions", () => {
    for (const statement of generated.policy.Statement) {
      for (const resource of statement.Resource as string[]) {
        if (resource === "*") expect(statement.Sid).toBe("NoResourceLevelPermissions");
        else expect(resource).toMatch(new RegExp(`^arn:aws:[a-z0-9-]+:(us-east-1)?:${recording.account}:([a-zA-Z-]+[:/])?(/aws/[\\w/]+/)?(schedule/default/)?payments-`));
      }
    }
    expect(generated.wildcardActions).toEqual(expect.arrayContaining(["logs:DescribeLogGroups", "states:ValidateStateMachineDefinition"]));
    expect([generated.deploy.length, generated.teardown.length]).toEqual([1, 1]);
    for (const doc of [...generated.deploy, ...generated.teardown]) expect(policySize(doc)).toBeLessThanOrEqual(MANAGED_POLICY_LIMIT);
  });

  describe("denies escalation through the deploy", () => {
    const attempts: [string, IamCall][] = [
      ["passing a stack role to another service", { action: "iam:PassRole", resource: roleArn("payments-pipe-us-east-1-role"), context: [["iam:PassedToService", "lambda.amazonaws.com"]] }],
      ["passing a role that is not the stack's", { action: "iam:PassRole", resource: roleArn("admin"), context: [["iam:PassedToService", "states.amazonaws.com"]] }],
      ["passing a stack role with no service named", { action: "iam:PassRole", resource: roleArn("payments-charge-us-east-1-role") }],
      ["attaching AdministratorAccess to a stack role", { action: "iam:AttachRolePolicy", resource: roleArn("payments-charge-us-east-1-role"), context: [["iam:PolicyARN", "arn:aws:iam::aws:policy/AdministratorAccess"]] }],
      ["creating a role outside the stack", { action: "iam:CreateRole", resource: roleArn("payments-charge-role-2") }],
      ["writing an inline policy into another role", { action: "iam:PutRolePolicy", resource: roleArn("deployer") }],
      ["assuming a stack role after rewriting its trust", { action: "sts:AssumeRole", resource: roleArn("payments-workflow-us-east-1-role") }],
      ["creating a user or an access key", { action: "iam:CreateAccessKey", resource: `arn:aws:iam::${recording.account}:user/deployer` }],
      ["reading the ledger's items", { action: "dynamodb:Scan", resource: `arn:aws:dynamodb:us-east-1:${recording.account}:table/payments-ledger` }],
      ["purging the source queue", { action: "sqs:PurgeQueue", resource: `arn:aws:sqs:us-east-1:${recording.account}:payments-queue` }],
      ["deleting another team's table", { action: "dynamodb:DeleteTable", resource: `arn:aws:dynamodb:us-east-1:${recording.account}:table/orders` }],
    ];
    it.each(attempts)("%s", async (_what, call) => {
      expect(await simulate([...generated.deploy, ...generated.teardown], call, principal)).not.toBe("Allowed");
    });
  });

  it("with the permissionsBoundary prop: roles created and their policies written or deleted only with it, and it cannot be removed", async () => {
    const boundary = `arn:aws:iam::${recording.account}:policy/payments-boundary`;
    const bounded = await deployerPolicy(synth(undefined, { permissionsBoundary: boundary }), env);
    expect(bounded.boundary).toBe(boundary);
    const both = [...bounded.deploy, ...bounded.teardown];
    const role = roleArn("payments-workflow-us-east-1-role");
    const withIt: [string, string][] = [["iam:PermissionsBoundary", boundary]];
    expect(await simulate(bounded.deploy, { action: "iam:CreateRole", resource: role, context: withIt }, principal)).toBe("Allowed");
    expect(await simulate(both, { action: "iam:CreateRole", resource: role }, principal)).not.toBe("Allowed");
    expect(await simulate(both, { action: "iam:CreateRole", resource: role, context: [["iam:PermissionsBoundary", "arn:aws:iam::aws:policy/AdministratorAccess"]] }, principal)).not.toBe("Allowed");
    expect(await simulate(both, { action: "iam:PutRolePolicy", resource: role, context: [["iam:PermissionsBoundary", "arn:aws:iam::aws:policy/AdministratorAccess"]] }, principal)).not.toBe("Allowed");
    expect(await simulate(both, { action: "iam:DeleteRolePermissionsBoundary", resource: role }, principal)).toBe("ExplicitlyDenied");
    // The recorded calls carry no boundary (the rehearsal's stack had none): with it, every other call is still allowed.
    const withBoundary = (c: IamCall): IamCall => (["iam:CreateRole", "iam:PutRolePolicy", "iam:DeleteRolePolicy"].includes(c.action) ? { ...c, context: [...(c.context ?? []), ...withIt] } : c);
    const denied: string[] = [];
    for (const call of recording.calls) {
      const policies = TEARDOWN_PHASES.has(call.phase) ? both : bounded.deploy;
      if ((await simulate(policies, withBoundary(call), principal)) !== "Allowed") denied.push(`${call.phase}: ${call.action} on ${call.resource}`);
    }
    expect(denied).toEqual([]);
  });

  it("with a customer managed key: the key's calls only through the stack's services", async () => {
    const key = `arn:aws:kms:us-east-1:${recording.account}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
    const keyed = await deployerPolicy(synth(undefined, { encryption: { kmsKeyArn: key } }), env);
    // The key policy AWS creates by default: the account's IAM policies decide (KMS developer guide, "Default key policy").
    const keyPolicy = { resourcePolicy: { Version: "2012-10-17" as const, Statement: [{ Sid: "Enable IAM User Permissions", Effect: "Allow", Principal: { AWS: `arn:aws:iam::${recording.account}:root` }, Action: "kms:*", Resource: "*" }] } };
    const viaDynamo: [string, string][] = [["kms:ViaService", "dynamodb.us-east-1.amazonaws.com"]];
    expect(await simulate(keyed.deploy, { action: "kms:CreateGrant", resource: key, context: viaDynamo }, principal, keyPolicy)).toBe("Allowed");
    expect(await simulate(keyed.deploy, { action: "kms:Decrypt", resource: key }, principal, keyPolicy)).not.toBe("Allowed");
    expect(await simulate(keyed.deploy, { action: "kms:ScheduleKeyDeletion", resource: key, context: viaDynamo }, principal, keyPolicy)).not.toBe("Allowed");
    expect(await simulate(generated.deploy, { action: "kms:CreateGrant", resource: key, context: viaDynamo }, principal, keyPolicy)).not.toBe("Allowed");
  });

  it("refuses a resource type it has no actions for, naming the type and the fix", async () => {
    const other = synth((json) => (json.resource.aws_sns_topic_subscription = { pager: { topic_arn: "arn:aws:sns:us-east-1:123456789012:payments-alarms" } }));
    await expect(deployerPolicy(other, env)).rejects.toThrow(new DeployerPolicyError("aws_sns_topic_subscription.pager: resource type aws_sns_topic_subscription has no row in packages/cli/src/deployer/resource-actions.ts; add the actions hashicorp/aws calls for it, then re-record the calls (npx effectively-once rehearse --record-calls packages/cli/test/deployer/fixtures/rehearsal-calls.json)"));
  });
});

describe("Generator: two pipelines in a stack, an S3 backend, another provider", () => {
  let two: SynthesizedStack;
  let generated: DeployerPolicy;
  beforeAll(async () => {
    two = synthTwoPipelines();
    generated = await deployerPolicy(two, env);
  });

  it("splits a set over IAM's 6,144 characters into several managed policies, each within it, that still allow every recorded call", async () => {
    expect(policySize({ Version: "2012-10-17", Statement: generated.deploy.flatMap((d) => d.Statement) })).toBeGreaterThan(MANAGED_POLICY_LIMIT);
    expect(generated.deploy.length).toBeGreaterThanOrEqual(2);
    for (const doc of [...generated.deploy, ...generated.teardown]) expect(policySize(doc)).toBeLessThanOrEqual(MANAGED_POLICY_LIMIT);
    expect(await deniedCalls(generated.deploy, (phase) => !TEARDOWN_PHASES.has(phase))).toEqual([]);
    expect(await deniedCalls([...generated.deploy, ...generated.teardown], (phase) => TEARDOWN_PHASES.has(phase))).toEqual([]);
    // The second pipeline's resources are covered too.
    expect(await simulate(generated.deploy, { action: "sqs:CreateQueue", resource: `arn:aws:sqs:us-east-1:${recording.account}:refunds-queue` }, principal)).toBe("Allowed");
    expect(await simulate([...generated.deploy, ...generated.teardown], { action: "dynamodb:DeleteTable", resource: `arn:aws:dynamodb:us-east-1:${recording.account}:table/refunds-ledger` }, principal)).toBe("Allowed");
  });

  it("includes the S3 backend's rights: the bucket listed, the state object read and written, the lock file also deleted", async () => {
    expect(generated.backend).toBe("S3 backend s3://team-terraform-state/pipelines/payments.tfstate, lock file pipelines/payments.tfstate.tflock");
    const object = "arn:aws:s3:::team-terraform-state/pipelines/payments.tfstate";
    const allowed = async (action: string, resource: string) => simulate(generated.deploy, { action, resource }, principal);
    expect(await allowed("s3:ListBucket", "arn:aws:s3:::team-terraform-state")).toBe("Allowed");
    expect(await allowed("s3:GetObject", object)).toBe("Allowed");
    expect(await allowed("s3:PutObject", object)).toBe("Allowed");
    expect(await allowed("s3:DeleteObject", `${object}.tflock`)).toBe("Allowed");
    expect(await allowed("s3:DeleteObject", object)).not.toBe("Allowed");
    expect(await allowed("s3:GetObject", "arn:aws:s3:::team-terraform-state/other-team.tfstate")).not.toBe("Allowed");
  });

  it("a DynamoDB lock table instead of a lock file: its item calls on that table only", async () => {
    const locked = await deployerPolicy(synth((json) => (json.terraform.backend = { s3: { bucket: "state", key: "p.tfstate", region: "eu-west-1", dynamodb_table: "terraform-locks" } })), env);
    const table = `arn:aws:dynamodb:eu-west-1:${recording.account}:table/terraform-locks`;
    for (const action of ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem"]) expect(await simulate(locked.deploy, { action, resource: table }, principal)).toBe("Allowed");
    expect(await simulate(locked.deploy, { action: "dynamodb:Scan", resource: table }, principal)).not.toBe("Allowed");
    expect(locked.backend).toContain("lock table terraform-locks");
  });

  it("no backend block: no S3 or lock rights at all", () => {
    const text = JSON.stringify(synthDefaultPolicy);
    expect(text).not.toMatch(/"s3:|tflock/);
  });

  it("says when the stack's provider is not the one the actions were recorded with", async () => {
    expect(RECORDED_PROVIDER_VERSION).toBe("5.100.0");
    expect(synthDefaultNote).toBeUndefined();
    const native = await deployerPolicy(synth((json) => (json.terraform.required_providers.aws.version = "6.66.0")), env);
    expect(native.providerNote).toMatch(/^the stack requires hashicorp\/aws 6\.66\.0, but the action list .* was recorded with 5\.100\.0/);
  });
});

let synthDefaultPolicy: readonly PolicyDocument[] = [];
let synthDefaultNote: string | undefined = "unset";
beforeAll(async () => {
  const result = await deployerPolicy(synth(), env);
  synthDefaultPolicy = [...result.deploy, ...result.teardown];
  synthDefaultNote = result.providerNote;
});

describe("docs/deploy.md: requiring the boundary in a deployer policy of your own", () => {
  const page = readFileSync(join(__dirname, "../../../../docs/deploy.md"), "utf8");
  const example = JSON.parse(/\*\*Requiring the boundary in a deployer policy of your own\.\*\*[\s\S]*?```json\n([\s\S]*?)```/.exec(page)![1]) as PolicyDocument;
  const account = "111122223333";
  const who = { arn: `arn:aws:iam::${account}:role/deployer`, account };
  const role = `arn:aws:iam::${account}:role/payments-workflow-role`;
  const boundary = `arn:aws:iam::${account}:policy/pipeline-boundary`;

  it.each(["iam:CreateRole", "iam:PutRolePolicy", "iam:AttachRolePolicy"])("%s is allowed only with the boundary", async (action) => {
    expect(await simulate([example], { action, resource: role, context: [["iam:PermissionsBoundary", boundary]] }, who)).toBe("Allowed");
    expect(await simulate([example], { action, resource: role }, who)).not.toBe("Allowed");
    expect(await simulate([example], { action, resource: role, context: [["iam:PermissionsBoundary", "arn:aws:iam::aws:policy/AdministratorAccess"]] }, who)).not.toBe("Allowed");
  });

  it("denies taking the boundary off a role or changing the boundary policy itself", async () => {
    expect(await simulate([example], { action: "iam:DeleteRolePermissionsBoundary", resource: role }, who)).toBe("ExplicitlyDenied");
    expect(await simulate([example], { action: "iam:CreatePolicyVersion", resource: boundary }, who)).toBe("ExplicitlyDenied");
  });
});

/** What the recording says about the plan: the provider validates a changed definition while planning. */
describe("Recording: what cdktf deploy calls", () => {
  it("includes iam:PassRole of each role to its own service and states:ValidateStateMachineDefinition", () => {
    const passes = recording.calls.filter((c) => c.action === "iam:PassRole").map((c) => `${c.resource.split("/").pop()} → ${c.context?.[0][1]}`);
    expect(new Set(passes)).toEqual(new Set(["payments-workflow-us-east-1-role → states.amazonaws.com", "payments-pipe-us-east-1-role → pipes.amazonaws.com", "payments-charge-us-east-1-role → lambda.amazonaws.com"]));
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

  it("prints the deploy and teardown sets for an account, with their sizes against IAM's limit and the wildcard actions named", async () => {
    const { code, stdout, stderr } = await run(["--account", "111122223333"]);
    expect(code).toBe(0);
    const sets = JSON.parse(stdout) as { deploy: PolicyDocument[]; teardown: PolicyDocument[] };
    expect(sets.deploy[0].Statement.length).toBeGreaterThan(5);
    expect(JSON.stringify(sets.deploy)).toContain("arn:aws:iam::111122223333:role/payments-pipe-us-east-1-role");
    expect(JSON.stringify(sets.teardown)).toContain("dynamodb:DeleteTable");
    expect(stderr).toMatch(/deploy: 1 managed policy \([\d,]+ of IAM's 6144 characters each\)/);
    expect(stderr).toMatch(/teardown: 1 managed policy \([\d,]+\), attached beside the deploy set only to tear down/);
    expect(stderr).toContain('on "*" (AWS documents no resource-level permissions for them): logs:DescribeLogGroups, states:ValidateStateMachineDefinition');
    expect(stderr).toContain("no S3 backend in the stack");
    expect(stderr).not.toContain("WARNING");
  });

  it("refuses an account id that is not 12 digits", async () => {
    expect(await run(["--account", "12345"])).toMatchObject({ code: 2, stderr: "deployer-policy: --account 12345: an AWS account id is 12 digits" });
  });
});
