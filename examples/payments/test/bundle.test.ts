import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { functionEnv, startLocalDynamoDb } from "./harness";

const run = promisify(execFile);
const TABLES = { idempotency: "bundle-idempotency", effects: "bundle-effects" };

/** Loads the bundle in a plain Node process, as the Lambda runtime would, and invokes it once. */
const INVOKE_SCRIPT = `
const { handler } = require(process.argv[1]);
if (typeof handler !== "function") throw new Error("handler is " + typeof handler);
const context = {
  functionName: "payments-test", awsRequestId: "req-1", invokedFunctionArn: "arn:aws:lambda:us-east-1:000000000000:function:payments-test",
  memoryLimitInMB: "256", functionVersion: "$LATEST", getRemainingTimeInMillis: () => 30000,
};
handler(JSON.parse(process.argv[2]), context).then(
  (result) => process.stdout.write("RESULT " + JSON.stringify(result) + "\\n"),
  (error) => { process.stdout.write("ERROR " + error.name + " " + error.message + "\\n"); process.exitCode = 1; },
);`;

describe("Bundle: examples/payments/functions/handler.ts through esbuild, as the construct builds it", () => {
  let db: Awaited<ReturnType<typeof startLocalDynamoDb>>;
  let dir: string;
  let bundle: string;

  beforeAll(async () => {
    db = await startLocalDynamoDb(TABLES);
    dir = await mkdtemp(join(tmpdir(), "payments-bundle-"));
    bundle = join(dir, "index.js");
    await build({
      entryPoints: [join(__dirname, "../functions/handler.ts")],
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
      // In this repository the workspace packages resolve to their source, as the construct's bundle does here
      // (a fresh clone has no dist/ to resolve to).
      conditions: ["@effectively-once/source"],
      outfile: bundle,
      logLevel: "silent",
    });
  });

  afterAll(async () => {
    await db?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("loads in plain Node and applies a charge against DynamoDB", async () => {
    // Arrange
    const event = { businessKey: '["t1","o-bundle"]', operation: "charge", messageId: randomUUID(), payload: { tenantId: "t1", orderId: "o-bundle", amount: 1250, currency: "EUR" } };
    const env = { ...process.env, ...functionEnv(db.endpoint, TABLES), POWERTOOLS_LOG_LEVEL: "ERROR" };

    // Act
    const { stdout } = await run(process.execPath, ["-e", INVOKE_SCRIPT, bundle, JSON.stringify(event)], { env, timeout: 10_000 });

    // Assert
    const line = stdout.split("\n").find((text) => text.startsWith("RESULT "));
    expect(JSON.parse(line?.slice("RESULT ".length) ?? "null")).toMatchObject({ businessKey: event.businessKey, outcome: "applied" });
    expect((await stat(bundle)).size).toBeLessThan(3 * 1024 * 1024);
  });

  it.each(["PAYLOAD_FIELDS", "EFFECTS_TABLE_NAME"])("fails to load naming the missing variable %s", async (name) => {
    // Arrange
    const env = { ...process.env, ...functionEnv(db.endpoint, TABLES), [name]: "" };

    // Act
    const attempt = run(process.execPath, ["-e", `require(${JSON.stringify(bundle)})`], { env, timeout: 10_000 });

    // Assert
    await expect(attempt).rejects.toMatchObject({ stderr: expect.stringContaining(`ConfigurationError: ${name} is not set`) });
  });
});
