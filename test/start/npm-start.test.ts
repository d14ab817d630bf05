import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { SFNClient, TestStateCommand } from "@aws-sdk/client-sfn";
import { createSqsClient } from "@effectively-once/local-cloud/emulators";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { waitFor } from "@effectively-once/testing";

const ROOT = join(__dirname, "../..");

function startScript(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts", ...args], { cwd: ROOT, env: { ...process.env, FORCE_COLOR: "0" } });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

describe("npm start", () => {
  let stack: SynthesizedStack;
  let dir: string;
  beforeAll(() => {
    stack = synthStack();
    dir = mkdtempSync(join(tmpdir(), "npm-start-"));
  });
  afterAll(() => {
    stack.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the sample stream and reports 0 lost, 0 double-applied and the expected DLQ, exiting 0", async () => {
    const run = startScript(["--stack-file", join(stack.stackDir, "cdk.tf.json"), "--orders", "8", "--retry-after", "1"]);
    const code = await run.exited;
    const out = run.output();
    expect(out).toContain("✔ 0 lost");
    expect(out).toContain("✔ 0 double-applied");
    expect(out).toContain("✔ the dead-letter queue holds what the stream asked for");
    expect(out).toMatch(/applied \(one effect per key\)\s+8/);
    expect(out).toMatch(/quarantined: payload-mismatch\s+1/);
    expect(out).toMatch(/warning: not emulated: .*aws_iam_role/);
    expect(code).toBe(0);
  }, 90_000);

  it("--serve prints the endpoints, processes what a client publishes, and stops cleanly on Ctrl-C", async () => {
    const stateFile = join(dir, "state.json");
    const run = startScript(["--stack-file", join(stack.stackDir, "cdk.tf.json"), "--serve", "--state-file", stateFile, "--retry-after", "1"]);
    try {
      await waitFor(() => run.output().includes("Ctrl-C stops."), { timeoutMs: 30_000, message: "serve mode never printed its endpoints" });
      const state = JSON.parse(readFileSync(stateFile, "utf8"));
      expect(run.output()).toContain(`queue URL     ${state.outputs.queue_url}`);
      const sqs = createSqsClient(state.endpoints.sqs);
      const { MessageId } = await sqs.send(
        new SendMessageCommand({ QueueUrl: state.outputs.queue_url, MessageBody: JSON.stringify({ tenantId: "cli", orderId: "o-1", amount: 1250, currency: "EUR" }) }),
      );
      sqs.destroy();
      await waitFor(() => run.output().includes(`processed    ${MessageId}`), { timeoutMs: 20_000, message: "the published message was never processed" });
      // The state file names the Step Functions endpoint; an unmocked Task there reads this cloud's ledger.
      expect(run.output()).toContain(`TestState     ${state.endpoints.stepfunctions}`);
      const sfn = new SFNClient({ endpoint: state.endpoints.stepfunctions, region: state.region, disableHostPrefix: true, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
      const scan = { Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::aws-sdk:dynamodb:scan", Arguments: { TableName: state.outputs.ledger_table_name }, Output: "{% $states.result.Count %}", End: true };
      const answer = await sfn.send(new TestStateCommand({ definition: JSON.stringify(scan), roleArn: "arn:aws:iam::000000000000:role/test" }));
      sfn.destroy();
      expect(answer).toMatchObject({ status: "SUCCEEDED", output: "1" });
    } finally {
      run.child.kill("SIGINT");
    }
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain("stopped.");
    expect(existsSync(stateFile)).toBe(false);
  }, 90_000);
});
