/** `effectively-once stepfunctions` (packages/cli/src/stepfunctions/cli.ts) end to end through the bin (spawns tsx: slower, so only a few cases). */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startBareDynalite, createTable, type LocalDynamo } from "@effectively-once/testing";

const exec = promisify(execFile);
const root = join(__dirname, "..", "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "sfn-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
};
const sfn = (args: string[], env: Record<string, string> = {}) =>
  exec(process.execPath, ["packages/cli/bin/effectively-once.js", "stepfunctions", ...args], { cwd: root, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let ddb: LocalDynamo;
beforeAll(async () => {
  ddb = await startBareDynalite();
  await createTable(ddb.client, "ledger");
});
afterAll(async () => ddb.close());

describe("CLI: sfn run", () => {
  it("prints one JSON object per run, the log on stderr, and uses --dynamodb-endpoint", async () => {
    const definition = file("m.json", {
      QueryLanguage: "JSONata",
      StartAt: "Put",
      States: {
        Put: {
          Type: "Task",
          Resource: "arn:aws:states:::dynamodb:putItem",
          Arguments: { TableName: "ledger", Item: { pk: { S: "{% $states.input.k %}" }, sk: { S: "x" } }, ConditionExpression: "attribute_not_exists(pk)" },
          Output: { stored: "{% $states.input.k %}" },
          End: true,
        },
      },
    });
    const input = file("i.json", { k: "cli-1" });
    const ok = await sfn(["run", "--definition", definition, "--input", input, "--log", "--dynamodb-endpoint", ddb.endpoint]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ status: "SUCCEEDED", output: { stored: "cli-1" } });
    expect(ok.stderr).toMatch(/TaskSucceeded/);
    const again = await sfn(["run", "--definition", definition, "--input", input], { AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: "FAILED", error: "DynamoDB.ConditionalCheckFailedException" });
  }, 60000);

  it("runs a test case of a Step Functions Local mock configuration (--mock-config, --test-case)", async () => {
    const definition = file("mocked.json", {
      StartAt: "Charge",
      States: {
        Charge: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { FunctionName: "charge", "Payload.$": "$" }, End: true },
      },
    });
    const config = file("mock.json", {
      StateMachines: { Payments: { TestCases: { Declined: { Charge: "ChargeDeclined" }, Paid: { Charge: "ChargeOk" } } } },
      MockedResponses: {
        ChargeDeclined: { "0": { Throw: { Error: "CardDeclined", Cause: "insufficient funds" } } },
        ChargeOk: { "0": { Return: { StatusCode: 200, Payload: { charged: true } } } },
      },
    });
    // Two processes only (each tsx start costs seconds); the Return path is covered in-process by mocks.test.ts.
    const [declined, missing] = await Promise.all([
      sfn(["run", "--definition", definition, "--mock-config", config, "--test-case", "Declined"]),
      sfn(["run", "--definition", definition, "--mock-config", config]),
    ]);
    expect(JSON.parse(declined.stdout)).toEqual({ status: "FAILED", error: "CardDeclined", cause: "insufficient funds" });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--mock-config needs --test-case/);
  }, 60000);

  it("exits non-zero with one line on stderr for an unusable definition", async () => {
    const bad = await sfn(["run", "--definition", file("bad.json", { StartAt: "X", States: { A: { Type: "Pass", End: true } } })]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("/StartAt: the state 'X' does not exist");
  }, 60000);
});

describe("CLI: sfn test-state and serve", () => {
  it("prints TestState's answer as the API returns it; a request AWS refuses exits 2 with AWS's code", async () => {
    const machine = file("orders.json", {
      StartAt: "ChargeAll",
      States: {
        ChargeAll: { Type: "Map", ItemsPath: "$.orders", ItemProcessor: { StartAt: "Charge", States: { Charge: { Type: "Pass", End: true } } }, ResultPath: "$.results", Next: "Report" },
        Report: { Type: "Succeed" },
      },
    });
    const [answered, refused] = await Promise.all([
      sfn(["test-state", "--definition", machine, "--state-name", "ChargeAll", "--input-json", '{"orders":[1,2]}', "--mock-result-json", '["a","b"]', "--inspection-level", "DEBUG"]),
      sfn(["test-state", "--definition", machine, "--state-name", "ChargeAll", "--input-json", '{"orders":[1,2]}']),
    ]);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual({
      output: '{"orders":[1,2],"results":["a","b"]}',
      nextState: "Report",
      status: "SUCCEEDED",
      inspectionData: { input: '{"orders":[1,2]}', afterInputPath: '{"orders":[1,2]}', afterItemsPath: "[1,2]", maxConcurrency: 0, afterResultSelector: '["a","b"]', afterResultPath: '{"orders":[1,2],"results":["a","b"]}' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe("stepfunctions: InvalidDefinition: TestState API does not support Map or Parallel states. Supported state types include: [Task, Wait, Pass, Succeed, Fail, Choice]");
  }, 60000);

  it("serve keeps the endpoint up until Ctrl-C, printing its URL", async () => {
    // node with tsx's loader directly (not npx), so that SIGINT reaches the script.
    const child = spawn(process.execPath, ["packages/cli/bin/effectively-once.js", "stepfunctions", "serve"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      const started = Date.now();
      while (!/on (http:\/\/127\.0\.0\.1:\d+)/.test(out) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 100));
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      expect(url).toBeDefined();
      const res = await fetch(url!, { method: "POST", headers: { "x-amz-target": "AWSStepFunctions.TestState" }, body: JSON.stringify({ definition: '{"Type":"Pass","End":true}', input: '{"a":1}' }) });
      expect(await res.json()).toEqual({ output: '{"a":1}', status: "SUCCEEDED" });
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
    expect(out).toContain("stopped.");
  }, 60000);
});
