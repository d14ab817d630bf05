import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { referenceTo, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { findProviderMirror, findTerraform } from "../../src/terraform/offline";
import { planStack } from "../../src/terraform/plan-stack";
import { runPlanReview } from "../../src/terraform/plan-review";
import { readRequiredProviders } from "../../src/terraform/required-providers";
import { loadBaseline } from "../../src/terraform/review/baseline";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type PlanReview } from "../../src/terraform/review/types";

/**
 * The queues' policies in real offline plans of synthesized stacks (terraform and the provider mirror of these
 * machines; terraform-plan.test.ts says how to opt out elsewhere): an upgrade that adds the construct's policies to
 * queues a release without them created, and a team's second `aws_sqs_queue_policy` on the DLQ.
 */
const terraform = findTerraform();
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";

(optedOut ? describe.skip : describe)("npm run plan:review on the queues' one policy (real terraform, offline)", () => {
  let work: string;
  let upgrade: PlanReview;
  let twoPolicies: PlanReview;
  let stack: SynthesizedStack;
  const env = { ...process.env, PIPELINE_STACK: "queue-policy-test", PIPELINE_REGION: "us-east-1", PIPELINE_NAME_PREFIX: "payments" };
  const review = (name: string, overrides: Parameters<typeof runPlanReview>[0]["overrides"], against?: string) =>
    runPlanReview({ mode: "offline", outdir: join(work, name), reportDir: join(work, name, "plan-review"), env, overrides, log: () => undefined, ...(against ? { against: loadBaseline(against) } : {}) });

  beforeAll(async () => {
    if (!terraform) throw new Error("terraform CLI not found on PATH: install Terraform >= 1.5, set TERRAFORM_BIN, or set SKIP_TERRAFORM_TESTS=1 to skip loudly");
    work = mkdtempSync(join(tmpdir(), "queue-policy-plan-"));
    // A stack with no queue policy at all (what release 0.2 deployed), and today's default planned against its state.
    const upgraded = review("base", { head: { allowQueuePurge: true, allowUnguardedDlqMoves: true } }).then(() => review("head", undefined, join(work, "base", "plan-review", "plan.json")));

    // Beside it: the default stack plus the team's own policy on the DLQ, letting its operations account read it.
    stack = synthStack();
    const file = join(stack.stackDir, "cdk.tf.json");
    const json = JSON.parse(readFileSync(file, "utf8"));
    const dlqArn = referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "arn");
    const ops = { Version: "2012-10-17", Statement: [{ Sid: "OpsReadsDlq", Effect: "Allow", Principal: { AWS: "arn:aws:iam::999988887777:root" }, Action: ["sqs:ReceiveMessage"], Resource: dlqArn }] };
    json.resource.aws_sqs_queue_policy.ops_reads_dlq = { queue_url: referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "url"), policy: JSON.stringify(ops) };
    writeFileSync(file, JSON.stringify(json));
    const planned = await planStack({ stackDir: stack.stackDir, mode: "offline", terraform: terraform!, mirror: findProviderMirror(readRequiredProviders(stack.stackDir), env), env, log: () => undefined });
    twoPolicies = buildReview(planned.plan, { basis: ActionBasis.EmptyState });
    upgrade = (await upgraded).review;
  }, 480_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
    stack?.cleanup();
  });

  it("flags each policy the upgrade creates on a queue that exists: its live statements are unknown offline and will be removed", () => {
    const policies = upgrade.resources.filter((r) => r.type === "aws_sqs_queue_policy");
    expect(policies.map((r) => r.action)).toEqual(["create", "create"]);
    const flags = upgrade.risks.filter((r) => r.kind === RiskKind.QueuePolicyReplacesLive);
    expect(flags.map((f) => [f.address, f.severity]).sort()).toEqual(policies.map((p) => [p.address, Severity.High]).sort());
    expect(flags[0].message).toMatch(/QUEUE POLICY CREATED ON AN EXISTING QUEUE: .* will write payments-(queue|dlq)'s whole Policy/);
    expect(flags[0].message).toContain("`queueAccess` prop");
  });

  it("flags the team's second policy on the DLQ as high, and judges the DLQ by each policy alone (unguarded)", () => {
    const dlq = Object.keys(stack.json.resource.aws_sqs_queue).find((id) => id.includes("dlq"));
    const address = `aws_sqs_queue.${dlq}`;
    const flags = twoPolicies.risks.map((r) => [r.kind, r.severity, r.address]);
    expect(flags).toEqual(
      expect.arrayContaining([
        [RiskKind.QueuePolicySources, Severity.High, address],
        [RiskKind.DlqNativeMovesAllowed, Severity.High, address],
      ]),
    );
    expect(twoPolicies.risks.find((r) => r.kind === RiskKind.QueuePolicySources)?.message).toContain("aws_sqs_queue_policy.ops_reads_dlq");
  });
});
