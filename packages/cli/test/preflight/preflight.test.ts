import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACCOUNT, ACCOUNT_ID, removeStackFiles, run, stackFile } from "./run";

afterAll(() => removeStackFiles());

/** Every name the test stack (prefix test, function charge, us-east-1) creates, one of each kind, as the stand-in holds them. */
const EXISTING = new Set([
  "role test-charge-us-east-1-role",
  "queue test-queue",
  "table test-ledger",
  "dashboard test-pipeline-us-east-1",
  "log-group /aws/lambda/test-charge",
  "function test-charge",
  `state-machine arn:aws:states:us-east-1:${ACCOUNT_ID}:stateMachine:test-workflow`,
  "pipe test-pipe",
]);

describe("CLI: npm run preflight (against a local stand-in of the account's APIs)", () => {
  it("--dry-run lists every call and makes none; the run makes only calls it lists, all read-only", async () => {
    const dry = await run(["--stack-file", stackFile(), "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.seen).toEqual([]);
    const listed = new Set([...dry.out.matchAll(/^ {2}([a-z]+:[A-Za-z]+)/gm)].map((m) => m[1]));
    const real = await run(["--stack-file", stackFile()]);
    expect(real.code).toBe(0);
    for (const call of real.seen) {
      expect(listed).toContain(call.split(" ")[0]);
      expect(call).toMatch(/^[a-z]+:(Get|List|Describe|Simulate)/);
    }
    expect(real.out).toContain(`✔ account ${ACCOUNT_ID}`);
    expect(real.out).toContain('lambda L-B99A9384 "Concurrent executions": 1,000');
    expect(real.out).toContain("pipes: Service Quotas lists no quotas here");
    expect(real.out).toMatch(/✔ none of the stack's \d+ names exists yet/);
  });

  it("fails a reservation that would leave fewer than 100 unreserved, with the most it may reserve", async () => {
    const { code, out } = await run(["--stack-file", stackFile(200)], { ...ACCOUNT, concurrentExecutions: 250, unreservedConcurrentExecutions: 250 });
    expect(code).toBe(1);
    expect(out).toContain("test-charge: reservedConcurrency 200 would leave 50 unreserved (AWS requires at least 100; 250 are free); apply would fail: reserve at most 150, or request Lambda concurrent executions ≥ 300");
  });

  it("counts the function's own current reservation back in on a re-deploy", async () => {
    const state = { ...ACCOUNT, concurrentExecutions: 300, unreservedConcurrentExecutions: 100, functions: new Map([["test-charge", 200]]) };
    const { code, out } = await run(["--stack-file", stackFile(200)], state);
    expect(code).toBe(0);
    expect(out).toContain("test-charge: reservedConcurrency 200 leaves 100 unreserved (≥ 100)");
  });

  it("fails when the credentials are for another account than --account", async () => {
    const { code, out } = await run(["--stack-file", stackFile(), "--account", "111122223333"]);
    expect(code).toBe(1);
    expect(out).toContain(`the credentials are for account ${ACCOUNT_ID}`);
  });

  it("is named in package.json", () => {
    expect(JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "..", "package.json"), "utf8")).scripts.preflight).toBe("node packages/cli/bin/effectively-once.js preflight");
  });
});

describe("CLI: npm run preflight, the names the stack creates", () => {
  it("fails on every name that already exists, one line each, with what AWS would do", async () => {
    const { code, out, seen } = await run(["--stack-file", stackFile()], { ...ACCOUNT, existing: EXISTING });
    expect(code).toBe(1);
    expect(out).toContain("✘ IAM role test-charge-us-east-1-role already exists in the account (IAM role and dashboard names are account-wide): CreateRole fails");
    expect(out).toContain("✘ SQS queue test-queue already exists in this region: CreateQueue returns the existing queue when its attributes match, and Terraform adopts it silently");
    expect(out).toContain("✘ CloudWatch dashboard test-pipeline-us-east-1 already exists in the account (IAM role and dashboard names are account-wide): PutDashboard overwrites it silently");
    for (const line of ["DynamoDB table test-ledger", "CloudWatch Logs log group /aws/lambda/test-charge", "Lambda function test-charge", "Step Functions state machine test-workflow", "EventBridge pipe test-pipe"]) {
      expect(out).toContain(`✘ ${line} already exists`);
    }
    expect(out.match(/already exists/g)).toHaveLength(EXISTING.size);
    expect(out).toContain("Fix: if an earlier deploy of this stack made it, pass --state <terraform.tfstate>");
    // The names were looked up as the stack writes them in us-east-1 (the account-wide ones carry the region).
    expect(seen).toEqual(expect.arrayContaining(["iam:GetRole test-pipe-us-east-1-role", "cloudwatch:GetDashboard test-pipeline-us-east-1", "sqs:GetQueueUrl test-dlq"]));
  });

  it("does not count a log group whose name only starts with the stack's", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], { ...ACCOUNT, existing: new Set(["log-group /aws/lambda/test-charge-old"]) });
    expect(code).toBe(0);
    expect(out).not.toContain("already exists");
  });

  it("accepts the names the stack's own state holds (a re-deploy) and still fails the others", async () => {
    const state = { version: 4, resources: [{ mode: "managed", type: "aws_sqs_queue", name: "q", instances: [{ attributes: { name: "test-queue" } }] }, { mode: "managed", type: "aws_iam_role", name: "r", instances: [{ attributes: { name: "test-charge-us-east-1-role" } }] }] };
    const file = join(__dirname, `state-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(state));
    try {
      const { code, out } = await run(["--stack-file", stackFile(), "--state", file], { ...ACCOUNT, existing: new Set(["queue test-queue", "role test-charge-us-east-1-role", "table test-ledger"]) });
      expect(code).toBe(1);
      expect(out).toContain("✔ SQS queue test-queue exists and the stack's state holds it (a re-deploy)");
      expect(out).toContain("✔ IAM role test-charge-us-east-1-role exists and the stack's state holds it");
      expect(out).toContain("✘ DynamoDB table test-ledger already exists in this region: CreateTable fails (ResourceInUseException). Fix: another stack or person made it");
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe("CLI: npm run preflight, the region and what stops it before any check", () => {
  const noProviderRegion = () => stackFile(undefined, (json) => delete json.provider.aws[0].region, "no-region");

  it("refuses a --region other than the stack's provider's (exit 4), and calls nothing", async () => {
    const { code, out, seen } = await run(["--stack-file", stackFile(), "--region", "eu-west-1"]);
    expect(code).toBe(4);
    expect(out).toContain("preflight: --region eu-west-1 is not the stack's region: its provider deploys to us-east-1. Fix: drop --region");
    expect(seen).toEqual([]);
  });

  it("refuses a malformed region and GovCloud (exit 4), and needs one when the provider has none", async () => {
    const bad = await run(["--stack-file", noProviderRegion(), "--region", "us-east1"]);
    expect(bad.code).toBe(4);
    expect(bad.out).toContain('preflight: "us-east1" is not a region code (like eu-west-1). Fix: pass a region where the pipeline can run, e.g. us-east-1');
    expect((await run(["--stack-file", noProviderRegion(), "--region", "us-gov-west-1"])).out).toContain("GovCloud (US) region, where EventBridge Pipes is not available");
    const none = await run(["--stack-file", noProviderRegion()]);
    expect(none.code).toBe(4);
    expect(none.out).toContain("Fix: pass --region, or set AWS_REGION");
  });

  it("fails when EventBridge Pipes does not answer in the region (its endpoint does not resolve)", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], ACCOUNT, { options: (o) => ({ ...o, endpoints: new Map([["pipes", "http://pipes.preflight-test.invalid"]]) }) });
    expect(code).toBe(1);
    expect(out).toContain("✘ EventBridge Pipes does not answer in us-east-1 (pipes.us-east-1 does not resolve), although botocore lists it there");
  });

  it("stops with exit 3 and the fix when no credentials are found", async () => {
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith("AWS_")) delete process.env[k];
    Object.assign(process.env, { AWS_SHARED_CREDENTIALS_FILE: "/nonexistent/credentials", AWS_CONFIG_FILE: "/nonexistent/config", AWS_EC2_METADATA_DISABLED: "true" });
    try {
      const { code, out } = await run(["--stack-file", stackFile()], ACCOUNT, { options: ({ credentials: _, ...o }) => o });
      expect(code).toBe(3);
      expect(out).toMatch(/^preflight: no usable AWS credentials while asking AWS in us-east-1 \(CredentialsProviderError: .*\)\. Fix: set AWS_PROFILE/);
    } finally {
      process.env = saved;
    }
  });

  it("stops with exit 5 and the fix when AWS cannot be reached", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], ACCOUNT, { options: (o) => ({ ...o, endpoint: "http://127.0.0.1:9" }) });
    expect(code).toBe(5);
    expect(out).toContain("preflight: AWS could not be reached while asking AWS in us-east-1 (ECONNREFUSED");
    expect(out).toContain("Fix: check the network, DNS and any HTTPS_PROXY");
  });
});
