import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack } from "cdktf";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline } from "@effectively-once/pipeline";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies } from "@effectively-once/local-cloud/harness";

// A domain no example has (support tickets keyed by [queue, number]), built, run and judged through the package's
// entry points only (`@effectively-once/pipeline`, its `/handler` entry via the handler file, `@effectively-once/local-cloud`
// and its `/harness`).
describe("Public entry points: a tickets stack of its own", () => {
  const outdir = mkdtempSync(join(tmpdir(), "public-api-"));
  let cloud: LocalCloud;

  beforeAll(async () => {
    const app = new App({ outdir });
    const stack = new TerraformStack(app, "tickets");
    new AwsProvider(stack, "aws", { region: "us-east-1" });
    const desk = new EffectJournalTable(stack, "desk", { namePrefix: "tickets" });
    new IdempotentPipeline(stack, "pipeline", {
      region: "us-east-1",
      namePrefix: "tickets",
      businessKey: { expression: "[queue, number]", requiredFields: ["queue", "number"] },
      operation: "open",
      payloadFields: ["priority"],
      fieldRules: { queue: { type: "string", pattern: "^[a-z]+$" }, number: { type: "integer", minimum: 1 }, priority: { type: "integer", minimum: 1, maximum: 9 } },
      function: { entry: join(__dirname, "tickets-handler.ts"), environment: desk.environment, policyStatements: desk.policyStatements },
      lambdaRetries: 0,
    });
    app.synth();
    cloud = await startLocalCloud({ stackFile: join(outdir, "stacks/tickets/cdk.tf.json"), retryVisibilityTimeoutSeconds: 1 });
  }, 60_000);

  afterAll(async () => {
    await cloud?.stop();
    rmSync(outdir, { recursive: true, force: true });
  });

  it("applies each key once and quarantines invalid, refused and conflicting tickets with their reasons", async () => {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [
      { queue: "billing", number: 1, priority: 2 },
      { queue: "billing", number: 1, priority: 2 },
      { priority: 2.0, number: 2, queue: "billing" },
      { queue: "billing", number: 2, priority: 3 },
      { queue: "Billing", number: 3, priority: 2 },
      { queue: "billing", number: 4, priority: 9 },
      { queue: "legacy", number: 5, priority: 1 },
    ]);
    await cloud.drain({ timeoutMs: 30_000 });
    const { effects, dlq, verification } = await observe(target, sent);

    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect([...effects.values()].filter((e) => e.effects.length > 0)).toHaveLength(2);
    expect(dlq.map((m) => m.reason).sort()).toEqual(["invalid-message", "payload-mismatch", "payload-mismatch", "rejected"]);
    expect(dlq.find((m) => m.reason === "rejected")?.detail).toContain("priority 9 tickets go to the phone line");
  }, 60_000);
});
