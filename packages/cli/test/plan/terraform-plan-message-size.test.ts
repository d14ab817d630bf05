/**
 * The upgrade's in-place shrink of the source queue, planned offline with the real terraform and provider mirror: a
 * base configuration with a larger maxMessageBytes (as release 0.2's 120 KiB) and this release's default (6 KiB). The
 * review sees Terraform's own update of `max_message_size` against a state seeded from the base plan and flags it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { largestMaxMessageBytes, sourceQueueMaxBytes } from "@effectively-once/contract";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { findTerraform } from "../../src/terraform/offline";
import { runPlanReview } from "../../src/terraform/plan-review";
import { RiskKind, type PlanReview } from "../../src/terraform/review/types";

/** 0.2's 120 KiB no longer passes this release's batch-input rule: the largest size it synthesizes (batch of 1) stands in. */
const OLD_MAX = largestMaxMessageBytes(1);
const terraform = findTerraform();
const optedOut = !terraform && process.env.SKIP_TERRAFORM_TESTS === "1";
if (optedOut) console.warn("\n*** terraform CLI not found and SKIP_TERRAFORM_TESTS=1: the message-size flag is NOT checked against real terraform ***\n");

(optedOut ? describe.skip : describe)("npm run plan:review --offline: an upgrade that lowers maxMessageBytes", () => {
  let work: string;
  let review: PlanReview;

  beforeAll(async () => {
    if (!terraform) throw new Error("terraform CLI not found on PATH: install Terraform >= 1.5, set TERRAFORM_BIN, or set SKIP_TERRAFORM_TESTS=1 to skip loudly");
    work = mkdtempSync(join(tmpdir(), "plan-review-size-"));
    const env = { ...process.env, PIPELINE_STACK: "plan-review-size", PIPELINE_REGION: "us-east-1", PIPELINE_NAME_PREFIX: "payments" };
    ({ review } = await runPlanReview({
      mode: "offline",
      outdir: join(work, "head"),
      reportDir: join(work, "report"),
      env,
      baseEnv: env,
      overrides: { base: { maxMessageBytes: OLD_MAX, batchSize: 1 } },
      log: () => undefined,
    }));
  }, 300_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("flags the source queue's in-place shrink from Terraform's own before and after, with both sizes", () => {
    const flags = review.risks.filter((r) => r.kind === RiskKind.MessageSizeReduced);
    expect(flags).toHaveLength(1);
    const queue = review.resources.find((r) => r.address === flags[0].address);
    expect(queue).toMatchObject({ type: "aws_sqs_queue", action: "update", name: "payments-queue" });
    expect(flags[0].basis).toBe("terraform");
    const shown = (n: number) => n.toLocaleString("en-US");
    expect(flags[0].message).toContain(`falls from ${shown(sourceQueueMaxBytes(OLD_MAX))} bytes`);
    expect(flags[0].message).toContain(`to ${shown(sourceQueueMaxBytes(DEFAULTS.maxMessageBytes))} bytes`);
  });
});
