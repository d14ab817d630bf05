import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { OFFLINE_OVERRIDE_FILE } from "../../src/terraform/offline-override";
import { findTerraform } from "../../src/terraform/offline";
import { main } from "../../src/terraform/plan-cli";
import { runPlanReview } from "../../src/terraform/plan-review";
import { loadBaseline } from "../../src/terraform/review/baseline";
import { serviceOf } from "../../src/terraform/review/planned";
import { ActionBasis, RiskKind, type PlanReview, type QueueSettings, type TableSettings } from "../../src/terraform/review/types";
import type { PipelineOverrides } from "@effectively-once/pipeline";

const terraform = findTerraform();
// This project's machines carry terraform and the provider mirror, so these tests must run there. Elsewhere a
// contributor may opt out explicitly; the opt-out is announced, never silent.
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";
if (optedOut) console.warn("\n*** terraform CLI not found and SKIP_TERRAFORM_TESTS=1: the offline plan review is NOT checked against real terraform ***\n");

const STACK = "plan-review-test";
/** Independent of the code under test: which service each resource type of this stack belongs to. */
const SERVICE: Record<string, string> = {
  aws_sqs_queue: "SQS",
  aws_sqs_queue_redrive_allow_policy: "SQS",
  aws_dynamodb_table: "DynamoDB",
  aws_iam_role: "IAM",
  aws_iam_role_policy: "IAM",
  aws_lambda_function: "Lambda",
  aws_sfn_state_machine: "Step Functions",
  aws_pipes_pipe: "EventBridge Pipes",
  aws_cloudwatch_log_group: "CloudWatch Logs",
  aws_cloudwatch_metric_alarm: "CloudWatch",
  aws_cloudwatch_dashboard: "CloudWatch",
};

interface Run {
  code: number;
  stderr: string;
  review: PlanReview;
  markdown: string;
  stackDir: string;
}

async function planRun(outdir: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const err: string[] = [];
  const code = await main(["--offline", "--quiet", "--outdir", outdir, ...args], { env, stdout: () => undefined, stderr: (l) => err.push(l) });
  const stderr = err.join("\n");
  if (code === 1) throw new Error(`npm run plan:review failed:\n${stderr}`);
  const report = join(outdir, "plan-review");
  return {
    code,
    stderr,
    review: JSON.parse(readFileSync(join(report, "review.json"), "utf8")) as PlanReview,
    markdown: readFileSync(join(report, "review.md"), "utf8"),
    stackDir: join(outdir, "stacks", STACK),
  };
}

(optedOut ? describe.skip : describe)("npm run plan:review --offline with the real terraform and provider mirror", () => {
  let work: string;
  let base: Run;
  let head: Run;
  let tuned: PlanReview;
  let optOut: PlanReview;
  let upgrade: PlanReview;
  const stateInRepo = join(process.cwd(), `terraform.${STACK}.tfstate`);

  beforeAll(async () => {
    if (!terraform) throw new Error("terraform CLI not found on PATH: install Terraform >= 1.5, set TERRAFORM_BIN, or set SKIP_TERRAFORM_TESTS=1 to skip loudly");
    work = mkdtempSync(join(tmpdir(), "plan-review-test-"));
    const env = { ...process.env, PIPELINE_STACK: STACK, PIPELINE_REGION: "us-east-1", PIPELINE_NAME_PREFIX: "payments" };
    // One plan of the default stack, then the same stack renamed, planned against a state seeded from the first.
    base = await planRun(join(work, "base"), [], env);
    const basePlan = join(work, "base", "plan-review", "plan.json");
    // Two changes planned against that state, side by side: a rename (through the CLI) and settings-only changes
    // (construct overrides, which only the programmatic API takes).
    const settingsRun = runPlanReview({
      mode: "offline",
      outdir: join(work, "tuned"),
      reportDir: join(work, "tuned", "plan-review"),
      env,
      against: loadBaseline(basePlan),
      overrides: { head: { pointInTimeRecovery: false, deletionProtection: false, logRetentionDays: 7, batchSize: 5, operation: "capture" } },
      log: () => undefined,
    });
    // The function's event shape, both ways: the default stack opting out of one invocation per batch, and the
    // per-record flow (the earlier releases' only one) upgraded to the default, each base planned in the same run.
    const shapeRun = (name: string, overrides: { head?: PipelineOverrides; base?: PipelineOverrides }, baseline: { against?: ReturnType<typeof loadBaseline>; baseEnv?: NodeJS.ProcessEnv }) =>
      runPlanReview({ mode: "offline", outdir: join(work, name), reportDir: join(work, name, "plan-review"), env, ...baseline, overrides, log: () => undefined });
    const optOutRun = shapeRun("opt-out", { head: { batchInvocation: false } }, { against: loadBaseline(basePlan) });
    const upgradeRun = shapeRun("upgrade", { base: { batchInvocation: false } }, { baseEnv: env });
    [head, { review: tuned }, { review: optOut }, { review: upgrade }] = await Promise.all([
      planRun(join(work, "head"), ["--against", basePlan, "--fail-on-risk"], { ...env, PIPELINE_NAME_PREFIX: "orders" }),
      settingsRun,
      optOutRun,
      upgradeRun,
    ]);
  }, 240_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe("the default stack", () => {
    it("counts every synthesized resource as a create, grouped by service", () => {
      // Arrange: what the stack declares, read from the synthesized JSON.
      const synthesized = JSON.parse(readFileSync(join(base.stackDir, "cdk.tf.json"), "utf8")) as { resource: Record<string, Record<string, unknown>> };
      const expected = new Map<string, number>();
      let total = 0;
      for (const [type, resources] of Object.entries(synthesized.resource)) {
        const n = Object.keys(resources).length;
        const service = SERVICE[type] ?? serviceOf(type);
        expected.set(service, (expected.get(service) ?? 0) + n);
        total += n;
      }
      // Assert
      expect(base.code).toBe(0);
      expect(base.review).toMatchObject({ basis: ActionBasis.EmptyState, mode: "offline", stack: STACK, risks: [] });
      expect(base.review.summary).toMatchObject({ create: total, update: 0, replace: 0, destroy: 0, noop: 0 });
      expect(Object.fromEntries(base.review.summary.byService.map((s) => [s.service, s.create]))).toEqual(Object.fromEntries(expected));
      expect(expected.get("DynamoDB")).toBe(3);
      expect(base.markdown).toContain(`**Plan:** ${total} to create, 0 to update, 0 to replace, 0 to destroy, 0 unchanged.`);
    });

    it("lists every IAM statement, with the ledger's ARN shown as its resource address and only AWS-required wildcards", () => {
      const statements = base.review.resources.flatMap((r) => r.statements ?? []);
      const ledgerAddress = base.review.resources.find((r) => r.type === "aws_dynamodb_table" && r.name === "payments-ledger")!.address;
      const ledger = statements.find((s) => s.sid === "Ledger")!;
      expect(ledger).toMatchObject({ role: "payments-workflow-us-east-1-role", resources: [`${ledgerAddress}.arn (payments-ledger)`] });
      expect(ledger.actions).toEqual(expect.arrayContaining(["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"]));
      expect(statements.filter((s) => s.source === "trust policy").map((s) => s.principals[0]).sort()).toEqual([
        "Service: lambda.amazonaws.com",
        "Service: pipes.amazonaws.com",
        "Service: scheduler.amazonaws.com",
        "Service: states.amazonaws.com",
      ]);
      expect(statements.filter((s) => s.wildcardActions.length > 0)).toEqual([]);
      const wildcards = statements.filter((s) => s.wildcardResource);
      expect(wildcards.map((s) => s.sid).sort()).toEqual(["LogDelivery", "Tracing", "Tracing"]);
      expect(wildcards.every((s) => s.requiredWildcard !== null)).toBe(true);
      expect(JSON.stringify(statements)).not.toContain("known after apply");
      expect(base.markdown).toContain(`| payments-workflow-us-east-1-role | inline policy | Ledger | Allow |`);
    });

    it("shows the settings that matter: SSE, TTL, PITR, redrive, timeouts, retention, workflow type, pipe batching", () => {
      const settings = (name: string) => base.review.resources.find((r) => r.name === name)?.settings;
      const visibility = DEFAULTS.visibilityTimeoutFactor * DEFAULTS.executionTimeoutSeconds;
      expect(settings("payments-queue")).toMatchObject<Partial<QueueSettings>>({
        encryption: "SQS-managed (SSE-SQS)",
        visibilityTimeoutSeconds: visibility,
        maxReceiveCount: DEFAULTS.maxReceiveCount,
      });
      expect((settings("payments-queue") as QueueSettings).redriveTarget).toMatch(/^aws_sqs_queue\.\S+\.arn \(payments-dlq\)$/);
      expect(settings("payments-ledger")).toMatchObject<Partial<TableSettings>>({ ttlAttribute: "expiresAt", pointInTimeRecovery: true, deletionProtection: true, encryption: "KMS: AWS managed key (aws/dynamodb)" });
      expect(settings("payments-idempotency")).toMatchObject({ ttlAttribute: "expiration", pointInTimeRecovery: true });
      expect(settings("payments-workflow")).toMatchObject({ type: "EXPRESS", logLevel: "ERROR", includeExecutionData: false, tracing: true });
      expect(settings("payments-pipe")).toMatchObject({ invocationType: "REQUEST_RESPONSE", batchSize: DEFAULTS.batchSize, batchingWindowSeconds: DEFAULTS.maximumBatchingWindowSeconds });
      expect(settings("/aws/lambda/payments-charge")).toMatchObject({ retentionDays: DEFAULTS.logRetentionDays });
      expect(base.markdown).toContain("### Pipeline settings");
    });
  });

  describe("a change that renames the tables, planned against the default stack's state", () => {
    it("is planned by terraform as a replacement of the ledger, flagged as data loss, with exit code 2 under --fail-on-risk", () => {
      const ledger = head.review.resources.find((r) => r.type === "aws_dynamodb_table" && r.name === "orders-ledger")!;
      expect(head.code).toBe(2);
      expect(head.review.basis).toBe(ActionBasis.SeededState);
      expect(ledger).toMatchObject({ action: "replace", replacePaths: ["name"] });
      const flag = head.review.risks.find((r) => r.address === ledger.address)!;
      expect(flag).toMatchObject({ kind: RiskKind.StatefulReplace, severity: "high", basis: "terraform" });
      expect(flag.message).toContain("payments-ledger is replaced");
      expect(flag.message).toContain("the ledger loses every claim: messages already applied could be applied again");
      expect(head.markdown).toContain("DATA LOSS: payments-ledger is replaced");
      expect(head.review.changes?.settings).toEqual(expect.arrayContaining([{ address: ledger.address, name: "orders-ledger", setting: "name", before: "payments-ledger", after: "orders-ledger" }]));
    });

    it("reads the function's second-layer ids from the plan: the rename keeps them (no reset), but stops honouring the earlier release's prefix", () => {
      const fn = head.review.resources.find((r) => r.type === "aws_lambda_function")!;
      expect(fn).toMatchObject({ action: "replace", settings: { secondLayerIds: JSON.stringify({ own: { keyPrefix: "effectively-once.v1", hashFunction: "sha256" }, legacyPrefix: "orders-charge" }) } });
      const kinds = head.review.risks.filter((r) => r.address === fn.address).map((r) => r.kind);
      expect(kinds).toEqual([RiskKind.SecondLayerLegacyDropped]);
      expect(head.review.risks.find((r) => r.address === fn.address)?.message).toContain('keep `function.legacyIdempotencyKeyPrefix: "payments-charge"`');
    });

    it("plans nothing but what the rename forces: no resource is created or destroyed outright", () => {
      expect(head.review.summary).toMatchObject({ create: 0, destroy: 0 });
      expect(head.review.summary.replace).toBe(base.review.summary.create);
      expect(head.stderr).toContain("terraform plan -refresh=false (state seeded from the baseline)");
    });
  });

  describe("settings-only changes, planned against the default stack's state", () => {
    it("updates exactly the resources whose settings change and leaves every other one untouched", () => {
      // Also proves the seeded state is faithful: a spurious difference would show as one more update.
      const updated = tuned.resources.filter((r) => r.action === "update").map((r) => r.name).sort();
      // The function too: one invocation per batch runs maxConcurrency (the batch size by default) records at once.
      expect(updated).toEqual([
        "/aws/lambda/payments-charge",
        "/aws/vendedlogs/pipes/payments-pipe",
        "/aws/vendedlogs/states/payments-workflow",
        "payments-charge",
        "payments-idempotency",
        "payments-ledger",
        "payments-pipe",
        "payments-workflow",
      ]);
      expect(tuned.summary).toMatchObject({ create: 0, replace: 0, destroy: 0, update: 8, noop: base.review.summary.create - 8 });
    });

    it("flags PITR and deletion protection turned off, and the new operation as a key derivation change, with Terraform's own before and after", () => {
      const flags = tuned.risks.map((r) => [r.kind, tuned.resources.find((x) => x.address === r.address)?.name, r.basis]);
      expect(flags).toEqual(
        expect.arrayContaining([
          [RiskKind.PitrDisabled, "payments-ledger", "terraform"],
          [RiskKind.PitrDisabled, "payments-idempotency", "terraform"],
          [RiskKind.DeletionProtectionOff, "payments-ledger", "terraform"],
          [RiskKind.DeletionProtectionOff, "payments-idempotency", "terraform"],
          [RiskKind.KeyDerivationChange, "payments-workflow", "terraform"],
        ]),
      );
      expect(tuned.risks).toHaveLength(5);
      expect(tuned.risks.find((r) => r.kind === RiskKind.KeyDerivationChange)?.message).toContain("operation `charge` → `capture`");
    });

    it("had the changed state machine definition checked by the local ValidateStateMachineDefinition", () => {
      expect(tuned.notes.join(" ")).toContain("checked locally (asl-validator)");
    });
  });

  describe("the function's event shape (one invocation per batch, the default)", () => {
    const shapeFlags = (review: PlanReview) => review.risks.filter((r) => r.kind === RiskKind.InvocationShapeChange);
    const nameOf = (review: PlanReview, address: string) => review.resources.find((r) => r.address === address)?.name;

    it("flags opting out (batchInvocation: false) on the function, with the rollback's order, and plans the per-record timeouts", () => {
      const flags = shapeFlags(optOut);
      expect(flags.map((f) => [nameOf(optOut, f.address), f.severity, f.basis])).toEqual([["payments-charge", "medium", "terraform"]]);
      expect(flags[0]!.message).toContain("stops invoking it once per batch");
      expect(flags[0]!.message).toContain("Roll the function's code back only after this deploy");
      expect(optOut.resources.filter((r) => r.action === "update").map((r) => r.name).sort()).toEqual(["payments-charge", "payments-queue", "payments-workflow"]);
      expect(optOut.changes?.settings).toEqual(expect.arrayContaining([expect.objectContaining({ name: "payments-queue", setting: "visibilityTimeoutSeconds", before: 1140, after: 720 })]));
    });

    it("flags the upgrade from one invocation per record to the default, with the function-first order", () => {
      const flags = shapeFlags(upgrade);
      expect(upgrade.basis).toBe(ActionBasis.SeededState);
      expect(flags.map((f) => [nameOf(upgrade, f.address), f.severity])).toEqual([["payments-charge", "medium"]]);
      expect(flags[0]!.message).toContain("starts invoking it once per batch");
      expect(flags[0]!.message).toContain("deploy that first, with `batchInvocation: false`");
      expect(upgrade.changes?.settings).toEqual(expect.arrayContaining([expect.objectContaining({ name: "payments-queue", setting: "visibilityTimeoutSeconds", before: 720, after: 1140 })]));
    });

    it("says nothing of the shape when it stays", () => {
      expect(shapeFlags(tuned)).toEqual([]);
    });
  });

  it("reports each step with its duration and leaves no override, state, lock file or .terraform behind", () => {
    for (const step of ["synth (", "terraform init (offline, mirror", "terraform plan (empty state)", "terraform show -json"]) {
      expect(base.stderr).toMatch(new RegExp(`^plan: ${step.replace(/[().]/g, "\\$&")}.* \\(\\d+(\\.\\d)? m?s\\)$`, "m"));
    }
    for (const run of [base, head, { stackDir: join(work, "tuned", "stacks", STACK) }]) {
      const files = readdirSync(run.stackDir);
      expect(files).not.toContain(OFFLINE_OVERRIDE_FILE);
      expect(files).not.toContain(".terraform");
      expect(files).not.toContain(".terraform.lock.hcl");
      expect(files.filter((f) => f.endsWith(".tfstate"))).toEqual([]);
    }
    expect(existsSync(stateInRepo)).toBe(false);
  });
});
