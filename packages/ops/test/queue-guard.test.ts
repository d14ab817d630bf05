/**
 * `dlq guard`, and the warnings of `dlq list` / `dlq redrive`, against queues provisioned from synthesized stacks on
 * the local SQS (fauxqs, real SDK): the default stack's policies refuse SQS's own DLQ redrive and purges; a stack
 * that opts out lets them through, and the CLI says so.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { writeStateFile } from "@effectively-once/contract";
import { loadStackFile, provisionStack } from "@effectively-once/local-cloud/emulators";
import { createSqsClient, startSqs, type LocalSqs } from "@effectively-once/local-cloud/emulators";
import { ExitCode, runCli } from "../src";
import type { PipelineOverrides, StackConfig } from "@effectively-once/pipeline";
import { startDynalite, type Dynalite } from "@effectively-once/testing";
import { TEST_STACK, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { captureIo } from "./support/ops-cloud";

let sqsServer: LocalSqs;
let sqs: SQSClient;
let dynamo: Dynalite;
const dir = mkdtempSync(join(tmpdir(), "ops-guard-"));
const stacks: SynthesizedStack[] = [];

/**
 * Provisions one synthesized stack and writes a state file for it (`<name>.json`), as `npm start -- --serve` does. The
 * stack's resources are named `<name>-…`, or, given the run's test stack, as that stack names them: the default stack
 * most suites synthesize, shared for the run (@effectively-once/testing/stack).
 */
async function provisioned(name: string, overrides: PipelineOverrides = {}, config: StackConfig = { stackName: `${name}-stack`, region: "us-east-1", namePrefix: name }): Promise<string> {
  const stack = synthStack(overrides, config);
  stacks.push(stack);
  const { outputs, region } = await provisionStack(loadStackFile(join(stack.stackDir, "cdk.tf.json")), { sqs, dynamodb: dynamo.client });
  return writeStateFile(
    { version: 1, pid: process.pid, startedAt: new Date().toISOString(), stackFile: join(stack.stackDir, "cdk.tf.json"), region, endpoints: { sqs: sqsServer.endpoint, dynamodb: dynamo.endpoint }, outputs },
    join(dir, `${name}.json`),
  );
}

let guarded: string;
let open: string;
beforeAll(async () => {
  [sqsServer, dynamo] = await Promise.all([startSqs(), startDynalite()]);
  sqs = createSqsClient(sqsServer.endpoint);
  guarded = await provisioned("guarded", {}, TEST_STACK);
  open = await provisioned("open", { allowUnguardedDlqMoves: true, allowQueuePurge: true });
}, 60_000);
afterAll(async () => {
  sqs?.destroy();
  await Promise.all([sqsServer?.stop(), dynamo?.stop()]);
  for (const stack of stacks) stack.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("pipeline-ops dlq guard", () => {
  it("reports the default stack's queues refusing native moves and purges, exit 0, no warning", async () => {
    const cli = captureIo();
    expect(await runCli(["dlq", "guard", "--state", guarded, "--json"], cli.io)).toBe(ExitCode.Ok);
    const { queues } = JSON.parse(cli.out.join(""));
    expect(queues.map((q: { queue: string; nativeMoves?: { refused: boolean }; purge: { refused: boolean } }) => [q.queue, q.nativeMoves?.refused, q.purge.refused])).toEqual([
      ["dlq", true, true],
      ["source", undefined, true],
    ]);
    expect(cli.err).toEqual([]);
  });

  it("reports the stack's redrive attributes as written: the source queue denyAll, the DLQ only the source queue's and without a redrive policy", async () => {
    const cli = captureIo();
    expect(await runCli(["dlq", "guard", "--state", guarded, "--json"], cli.io)).toBe(ExitCode.Ok);
    const { redrive } = JSON.parse(cli.out.join(""));
    expect([redrive.sourceAsDeadLetterQueue.guarded, redrive.dlqRedrivePolicy.guarded, redrive.dlqSources.guarded]).toEqual([true, true, true]);
  });

  it("warns, and exits 1, after an edit of the redrive attributes: the source queue opened, the DLQ given a redrive policy to a temporary queue", async () => {
    // Arrange: the edits an operator makes for the two paths back (docs/guarantees.md, "paths back from the DLQ").
    const state = await provisioned("edited");
    const urlOf = async (name: string) => (await sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl as string;
    const [source, dlq, temporary] = [await urlOf("edited-queue"), await urlOf("edited-dlq"), await urlOf("edited-temporary")];
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: temporary, AttributeNames: ["QueueArn"] }));
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: source, Attributes: { RedriveAllowPolicy: JSON.stringify({ redrivePermission: "allowAll" }) } }));
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: dlq, Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: 1 }) } }));
    // Act
    const cli = captureIo();
    const exit = await runCli(["dlq", "guard", "--state", state], cli.io);
    // Assert
    expect(exit).toBe(ExitCode.Failure);
    const warnings = cli.err.filter((line) => line.startsWith("WARNING:"));
    expect(warnings).toEqual([
      expect.stringMatching(/^WARNING: source queue as a DLQ \(RedriveAllowPolicy\): allowed: .*allowAll/),
      expect.stringMatching(/^WARNING: DLQ's own redrive \(RedrivePolicy\): set: .*edited-temporary/),
    ]);
    expect(cli.out.join("")).toContain("redrive paths");
  });

  it("warns, and exits 1, when the stack's props let native moves and purges through", async () => {
    const cli = captureIo();
    expect(await runCli(["dlq", "guard", "--state", open], cli.io)).toBe(ExitCode.Failure);
    const warnings = cli.err.filter((line) => line.startsWith("WARNING:"));
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^WARNING: the DLQ \(.*open-dlq\) allows sqs:StartMessageMoveTask: allowed: the queue has no policy.*Use `dlq redrive`/);
    expect(cli.out.join("")).toContain("native moves (sqs:StartMessageMoveTask)  allowed");
  });
});

describe("pipeline-ops dlq list / dlq redrive", () => {
  it("say nothing of the guard on the default stack", async () => {
    const cli = captureIo();
    await runCli(["dlq", "list", "--state", guarded], cli.io);
    expect(cli.err.filter((line) => line.startsWith("WARNING:"))).toEqual([]);
  });

  it.each([["list"], ["redrive"]])("dlq %s warns first when the deployed DLQ allows SQS's own redrive", async (verb) => {
    const cli = captureIo();
    await runCli(["dlq", verb, "--state", open, "--json"], cli.io);
    expect(cli.err[0]).toMatch(/^WARNING: the DLQ .* allows sqs:StartMessageMoveTask/);
    if (verb === "list") expect(JSON.parse(cli.out.join("")).guard.nativeMoves.refused).toBe(false);
  });
});
