import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findTerraform } from "../../src/terraform/offline";
import { main } from "../../src/terraform/plan-cli";
import { RiskKind, type PlanReview } from "../../src/terraform/review/types";

const terraform = findTerraform();
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";
if (optedOut) console.warn("\n*** terraform CLI not found and SKIP_TERRAFORM_TESTS=1: --base-env/--head-env are NOT checked against real terraform ***\n");

/** The same stack name and prefix in both files: only PIPELINE_APP tells the two configurations apart. */
const SHARED = "PIPELINE_STACK=shop-pipeline\nPIPELINE_NAME_PREFIX=shop\nPIPELINE_REGION=us-east-1\n";

(optedOut ? describe.skip : describe)("npm run plan:review --base-env/--head-env: each file's PIPELINE_APP picks its app", () => {
  let work: string;
  let review: PlanReview;
  let stderr: string;

  beforeAll(async () => {
    if (!terraform) throw new Error("terraform CLI not found on PATH: install Terraform >= 1.5, set TERRAFORM_BIN, or set SKIP_TERRAFORM_TESTS=1 to skip loudly");
    work = mkdtempSync(join(tmpdir(), "plan-apps-test-"));
    writeFileSync(join(work, "base.env"), `PIPELINE_APP=payments\n${SHARED}`);
    writeFileSync(join(work, "head.env"), `export PIPELINE_APP="invoices"\n${SHARED}`);
    // The process itself names neither app: a run that read PIPELINE_APP from process.env would plan payments twice.
    const { PIPELINE_APP: _ignored, ...env } = process.env;
    const err: string[] = [];
    const outdir = join(work, "out");
    const code = await main(["--offline", "--quiet", "--outdir", outdir, "--base-env", join(work, "base.env"), "--head-env", join(work, "head.env")], {
      env,
      stdout: () => undefined,
      stderr: (line) => err.push(line),
    });
    stderr = err.join("\n");
    if (code !== 0) throw new Error(`npm run plan:review failed (exit ${code}):\n${stderr}`);
    review = JSON.parse(readFileSync(join(outdir, "plan-review", "review.json"), "utf8")) as PlanReview;
  }, 150_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("synthesizes each configuration with the project's synth command and its own env file", () => {
    // From a project folder (this repository has a cdktf.json) each configuration runs the project's own synth
    // command with its file's variables; the next test proves the two runs synthesized different apps.
    expect(stderr).toMatch(/^plan: base: synth \(npx tsx main\.ts\) \(/m);
    expect(stderr).toMatch(/^plan: head: synth \(npx tsx main\.ts\) \(/m);
    expect(review.changes?.baseline).toContain("stack shop-pipeline");
  });

  it("reports the change of app as changes: another key derivation, flagged as a key reset", () => {
    const changes = review.changes!;
    expect(changes.added.length + changes.removed.length + changes.settings.length).toBeGreaterThan(0);
    expect(changes.settings.map((s) => s.setting)).toContain("keyDerivation");
    expect(review.risks.map((r) => r.kind)).toContain(RiskKind.KeyDerivationChange);
  });
});
