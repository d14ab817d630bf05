import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { synthLoadStack, type LoadStack } from "@effectively-once/local-cloud/stack";
import { writeTerraformOutputs } from "@effectively-once/testing";

// The AWS path proven end to end: the local cloud addressed exactly as a deployed stack, from another process that
// knows only a `terraform output -json` file, the standard AWS_* variables and fake credentials.
const ROOT = resolve(__dirname, "../../../..");
const BIN = join(ROOT, "packages", "cli", "bin", "effectively-once.js");
const run = promisify(execFile);

let stack: LoadStack;
let cloud: LocalCloud;
let dir: string;
let outputsFile: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  stack = synthLoadStack({ stackName: "soak-aws", region: "us-east-1", namePrefix: "soakaws" });
  cloud = await startLocalCloud({ stackFile: stack.stackFile, retryVisibilityTimeoutSeconds: 1, ttlSweepIntervalMs: 0 });
  dir = mkdtempSync(join(tmpdir(), "soak-aws-"));
  outputsFile = join(dir, "outputs.json");
  writeTerraformOutputs(outputsFile, cloud.outputs);
  const { AWS_PROFILE: _profile, AWS_ENDPOINT_URL: _any, ...rest } = process.env;
  env = {
    ...rest,
    AWS_REGION: cloud.region,
    AWS_ACCESS_KEY_ID: "fake",
    AWS_SECRET_ACCESS_KEY: "fake",
    AWS_ENDPOINT_URL_SQS: cloud.endpoints.sqs,
    AWS_ENDPOINT_URL_DYNAMODB: cloud.endpoints.dynamodb,
  };
}, 60_000);

afterAll(async () => {
  await cloud?.stop();
  stack?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `effectively-once <tool> --target aws --outputs-file F …` as a child process; never rejects on a non-zero exit. */
async function cli(tool: "soak" | "bench", ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [BIN, tool, "--target", "aws", "--outputs-file", outputsFile, "--stack-file", stack.stackFile, "--quiet-seconds", "1", ...argv];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function queueDepth(): Promise<number> {
  const { Attributes = {} } = await cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: cloud.outputs.queue_url as string, AttributeNames: ["All"] }));
  return Number(Attributes.ApproximateNumberOfMessages) + Number(Attributes.ApproximateNumberOfMessagesNotVisible);
}

describe("npm run soak|bench -- --target aws, against the local cloud addressed as a deployed stack", () => {
  it("--dry-run lists the calls and sends nothing", async () => {
    // Act
    const r = await cli("soak", "--messages", "50", "--rate", "20", "--dry-run");

    // Assert
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/SendMessageBatch\s+×5\s+\S*soakaws/);
    expect(r.stdout).toContain(`SQS endpoint: ${cloud.endpoints.sqs} (AWS_ENDPOINT_URL_SQS)`);
    expect(await queueDepth()).toBe(0);
    expect(cloud.stats().outcomes.processed).toBe(0);
  }, 60_000);

  it("refuses to send without --yes", async () => {
    // Act
    const r = await cli("bench", "--messages", "20");

    // Assert
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("nothing was sent");
    expect(cloud.stats().outcomes.processed).toBe(0);
  }, 60_000);

  it("soaks 50 messages at 20 msg/s: 0 lost, 0 double-applied, every fate checked from the stack's stores", async () => {
    // Arrange
    const jsonFile = join(dir, "soak.json");

    // Act
    const r = await cli("soak", "--messages", "50", "--rate", "20", "--invalid", "0.04", "--conflicts", "0.04", "--rejected", "0.04", "--yes", "--json-file", jsonFile);

    // Assert
    expect(r.stderr).toContain("estimated cost: $");
    expect(r.stderr.indexOf("estimated cost")).toBeLessThan(r.stderr.indexOf("published"));
    expect(r.stdout).toMatch(/LOST\s+0\s+must be 0/);
    expect(r.stdout).toMatch(/DOUBLE-APPLIED\s+0\s+must be 0/);
    expect(r.stdout).toContain("Not checkable against a deployed stack");
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(jsonFile, "utf8"));
    expect(json).toMatchObject({ ok: true, settled: true, figures: { sent: 50, lost: 0, doubleApplied: 0 } });
    expect(json.figures.quarantinedByReason).toMatchObject({ "invalid-message": 2, rejected: 2 });
    expect(cloud.stats().outcomes.processed).toBeGreaterThan(0);
  }, 120_000);

  it("benches 30 messages at 20 msg/s with the same checks and a throughput figure", async () => {
    // Act
    const r = await cli("bench", "--messages", "30", "--rate", "20", "--yes", "--json");

    // Assert
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json).toMatchObject({ ok: true, figures: { sent: 30, lost: 0, doubleApplied: 0 } });
    expect(json.figures.throughputPerSecond).toBeGreaterThan(0);
  }, 120_000);
});
