import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { awsReader } from "../../tools/preflight/aws";
import { runPreflightCli } from "../../tools/preflight/cli";
import { synthStack } from "@effectively-once/testing";
import { startAccountStandIn, type AccountState } from "./account-stand-in";

const LAMBDA_QUOTAS = [{ code: "L-B99A9384", name: "Concurrent executions", value: 1000 }, { code: "L-2ACBD22F", name: "Function and layer storage", value: 80530636800 }];
const ACCOUNT: AccountState = { concurrentExecutions: 1000, unreservedConcurrentExecutions: 1000, functions: new Map(), quotas: new Map([["lambda", LAMBDA_QUOTAS], ["states", []], ["sqs", []]]) };

let dir: string;
const stackFiles = new Map<string, string>();
/** The test stack synthesized once per reservation, written as a cdk.tf.json the CLI reads. */
function stackFile(reservedConcurrency?: number): string {
  const key = String(reservedConcurrency);
  if (!stackFiles.has(key)) {
    const s = synthStack(reservedConcurrency === undefined ? {} : { function: { reservedConcurrency } });
    try {
      const file = join(dir, `stack-${key}.json`);
      writeFileSync(file, JSON.stringify(s.json));
      stackFiles.set(key, file);
    } finally {
      s.cleanup();
    }
  }
  return stackFiles.get(key)!;
}
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "preflight-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[], state: AccountState = ACCOUNT) {
  const standIn = await startAccountStandIn(state);
  let out = "";
  try {
    const code = await runPreflightCli(argv, {
      env: {},
      stdout: (t) => (out += t),
      reader: (options) => awsReader({ ...options, endpoint: standIn.endpoint, credentials: { accessKeyId: "AKIAPREFLIGHTTEST000", secretAccessKey: "not-a-secret" } }),
    });
    return { code, out, seen: standIn.seen };
  } finally {
    await standIn.close();
  }
}

describe("CLI: npm run preflight (against a local stand-in of the account's APIs)", () => {
  it("--dry-run lists every call and makes none; the run then makes exactly those, all read-only", async () => {
    const dry = await run(["--stack-file", stackFile(), "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.seen).toEqual([]);
    const listed = [...dry.out.matchAll(/^ {2}(\S+)(?: (\{.*\}))?:/gm)].map((m) => `${m[1]}${m[2] ? ` ${Object.values(JSON.parse(m[2]))[0]}` : ""}`);
    const real = await run(["--stack-file", stackFile()]);
    expect(real.code).toBe(0);
    expect(real.seen).toEqual(listed);
    for (const call of real.seen) expect(call).toMatch(/^[a-z]+:(Get|List)/);
    expect(real.out).toContain("✔ account 000000000000");
    expect(real.out).toContain('lambda L-B99A9384 "Concurrent executions": 1000');
    expect(real.out).toContain("pipes: Service Quotas lists no quotas here");
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

  it("warns when a new account's concurrency is below what the capacity plan assumes, with the flag to re-plan", async () => {
    const { code, out } = await run(["--stack-file", stackFile()], { ...ACCOUNT, concurrentExecutions: 10, unreservedConcurrentExecutions: 10 });
    expect(code).toBe(0);
    expect(out).toContain("! Lambda concurrent executions 10 (invocations 100/s account-wide): below the 1000 the capacity plan assumes; re-plan with npm run capacity:plan -- --rate N --quota lambda.concurrency=10");
  });

  it("fails when the credentials are for another account than --account", async () => {
    const { code, out } = await run(["--stack-file", stackFile(), "--account", "111122223333"]);
    expect(code).toBe(1);
    expect(out).toContain("the credentials are for account 000000000000");
  });

  it("is named in package.json", () => {
    expect(JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")).scripts.preflight).toBe("tsx scripts/preflight.ts");
  });
});
