import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { literalOutputs, loadStackFile } from "@effectively-once/local-cloud/emulators";
import { splitTarget } from "../../src/load/remote-args";
import { runRemoteCli } from "../../src/load/remote-cli";
import { LoadTool } from "../../src/load/remote-options";
import { synthLoadStack, type LoadStack } from "@effectively-once/local-cloud/stack";
import { writeTerraformOutputs } from "@effectively-once/testing";

// A deployed stack as its outputs file shows it; nothing listens on port 9, so any call that got out would fail.
const QUEUE = "https://sqs.us-east-1.amazonaws.com/123456789012/remote-queue";
const DLQ = "https://sqs.us-east-1.amazonaws.com/123456789012/remote-dlq";
const NO_ENDPOINTS = { AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:9", AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:9" };

let stack: LoadStack;
let dir: string;
let outputsFile: string;

beforeAll(() => {
  stack = synthLoadStack({ stackName: "remote-cli", region: "us-east-1", namePrefix: "remote" });
  dir = mkdtempSync(join(tmpdir(), "remote-cli-"));
  outputsFile = join(dir, "outputs.json");
  const contract = literalOutputs(loadStackFile(stack.stackFile), ["business_key_expression", "business_key_fields", "payload_fields", "operation"]);
  writeTerraformOutputs(outputsFile, {
    ...contract,
    region: "us-east-1",
    queue_url: QUEUE,
    dlq_url: DLQ,
    ledger_table_name: "remote-ledger",
    idempotency_table_name: "remote-idempotency",
    effects_table_name: "remote-effects",
    function_name: "remote-fn",
    retention_seconds: 1_209_600,
  });
});

afterAll(() => {
  stack.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function run(tool: LoadTool, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runRemoteCli(tool, ["--target", "aws", "--outputs-file", outputsFile, "--stack-file", stack.stackFile, ...argv], {
    stdout: (text) => out.push(text),
    stderr: (line) => err.push(line),
    env: NO_ENDPOINTS,
    now: () => Date.UTC(2026, 11, 1),
  });
  return { code, stdout: out.join(""), stderr: err.join("\n") };
}

describe("Function: runRemoteCli", () => {
  it("--dry-run lists every call with its resource and count, the cost, and sends nothing", async () => {
    // Act
    const r = await run(LoadTool.Soak, "--messages", "50", "--rate", "20", "--dry-run");

    // Assert
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("nothing is sent");
    const row = (service: string, action: string, count: string, resource: string) => new RegExp(`${service}\\s+${action}\\s+${count}\\s+(×\\d+ \\([^)]*\\)\\s+)?${resource}\\s`);
    expect(r.stdout).toMatch(row("SQS", "SendMessageBatch", "×5", QUEUE));
    expect(r.stdout).toContain("50 messages, 10 per call, at 20 msg/s");
    expect(r.stdout).toMatch(row("SQS", "GetQueueAttributes", "×\\d+", QUEUE));
    expect(r.stdout).toMatch(row("SQS", "ReceiveMessage", "×\\d+", DLQ));
    expect(r.stdout).toMatch(row("DynamoDB", "Query", "×34", "remote-effects"));
    expect(r.stdout).toMatch(row("DynamoDB", "GetItem", "×34", "remote-ledger"));
    expect(r.stdout).toMatch(row("DynamoDB", "GetItem", "×34", "remote-idempotency"));
    expect(r.stdout).toMatch(/estimated cost: \$\d+\.\d+ = pipeline/);
    expect(r.stdout).toContain("SQS endpoint: http://127.0.0.1:9 (AWS_ENDPOINT_URL_SQS)");
    expect(r.stderr).toBe("");
  });

  it("without --yes prints the plan and the estimate, sends nothing and exits 2 saying how to go on", async () => {
    // Act
    const r = await run(LoadTool.Bench, "--messages", "20");

    // Assert
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("estimated cost:");
    expect(r.stderr).toMatch(/nothing was sent\. This would send 20 messages to .*remote-queue \(estimated \$[\d.]+\): add --yes to run it, or --dry-run/);
  });

  it.each([
    [LoadTool.Soak, ["--faults", "harsh"], "--faults: fault injection needs the local cloud"],
    [LoadTool.Soak, ["--pollers", "4"], "--pollers: is a setting of the local cloud and is refused with --target aws"],
    [LoadTool.Bench, ["--batch-sizes", "1,10"], "--batch-sizes: is a setting of the local cloud"],
    [LoadTool.Soak, ["--messages", "5000"], "--messages: 5000 is above --max-messages 1000"],
    [LoadTool.Soak, ["--rate", "0"], "--rate: 0 (as fast as possible) is refused with --target aws"],
  ])("%s %j is refused, naming the flag, before anything is sent", async (tool, argv, message) => {
    // Act
    const r = await run(tool, ...argv, "--yes");

    // Assert
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });

  it("needs --outputs-file", async () => {
    // Act
    const err: string[] = [];
    const code = await runRemoteCli(LoadTool.Soak, ["--target", "aws", "--yes"], { stdout: () => undefined, stderr: (l) => err.push(l) });

    // Assert
    expect(code).toBe(2);
    expect(err.join("")).toContain("--outputs-file: is required with --target aws");
  });
});

describe("Function: splitTarget", () => {
  it("keeps the local tool's flags without --target, and every flag with --target aws", () => {
    expect(splitTarget(["--messages", "5", "--target", "local"])).toEqual({ target: "local", rest: ["--messages", "5"] });
    expect(splitTarget(["--target=aws", "--yes"])).toEqual({ target: "aws", rest: ["--target=aws", "--yes"] });
    expect(() => splitTarget(["--target", "gcp"])).toThrow('--target: must be local or aws, got "gcp"');
  });
});
