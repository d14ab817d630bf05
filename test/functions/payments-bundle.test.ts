import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { type Dynalite, startDynalite } from "../helpers/dynalite";
import { paymentEvent } from "./support/events";
import { paymentsEnv } from "./support/payments-env";
import { effectsTable, idempotencyTable } from "./support/tables";

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

describe("Bundle: examples/payments/functions/handler.ts through esbuild, as the infrastructure builds it", () => {
  let db: Dynalite;
  let dir: string;
  let bundle: string;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(idempotencyTable(TABLES.idempotency));
    await db.createTable(effectsTable(TABLES.effects));
    dir = await mkdtemp(join(tmpdir(), "payments-bundle-"));
    bundle = join(dir, "index.js");
    await build({
      entryPoints: [join(__dirname, "../../examples/payments/functions/handler.ts")],
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
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
    const event = paymentEvent();
    const env = { ...process.env, ...paymentsEnv(db.endpoint, TABLES), POWERTOOLS_LOG_LEVEL: "ERROR" };

    // Act
    const { stdout } = await run(process.execPath, ["-e", INVOKE_SCRIPT, bundle, JSON.stringify(event)], {
      env,
      timeout: 10_000,
    });

    // Assert
    const line = stdout.split("\n").find((text) => text.startsWith("RESULT "));
    expect(JSON.parse(line?.slice("RESULT ".length) ?? "null")).toMatchObject({
      businessKey: event.businessKey,
      outcome: "applied",
    });
    expect((await stat(bundle)).size).toBeLessThan(3 * 1024 * 1024);
  });

  it("fails to load naming the missing variable", async () => {
    // Arrange
    const env = { ...process.env, ...paymentsEnv(db.endpoint, TABLES), PAYLOAD_FIELDS: "" };

    // Act
    const attempt = run(process.execPath, ["-e", `require(${JSON.stringify(bundle)})`], { env, timeout: 10_000 });

    // Assert
    await expect(attempt).rejects.toMatchObject({ stderr: expect.stringContaining("ConfigurationError: PAYLOAD_FIELDS is not set") });
  });
});
