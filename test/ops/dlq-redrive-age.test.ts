/**
 * dlq redrive refuses what the ledger may have forgotten: a message whose first send is older than
 * retention − source queue retention (14 d − 4 d = 10 d by default). Against the local cloud's real queues; the
 * redrive target is a plain capture queue, so each copy can be read back with its attributes (no pipe consumes it).
 * The clock is the command context's `now`, so "day 10" costs no waiting.
 */
import { join } from "node:path";
import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { writeStateFile } from "../../local/cloud";
import { ExitCode, redriveDlq, runCli, TargetError, type OpsContext } from "../../tools/ops";
import { captureIo, payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

const DAY_MS = 24 * 3600 * 1000;
let ops: OpsCloud;
let capture: string;
let ctx: OpsContext;

/** Command context whose clock reads `days` ahead, redriving into the capture queue. */
function at(days: number): OpsContext {
  return { ...ctx, now: () => Date.now() + days * DAY_MS };
}

async function drainCapture(): Promise<{ body: string; attributes: Record<string, MessageAttributeValue> }[]> {
  const { Messages = [] } = await ops.cloud.clients.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: capture, MaxNumberOfMessages: 10, MessageAttributeNames: ["All"], WaitTimeSeconds: 0 }),
  );
  for (const m of Messages) await ops.cloud.clients.sqs.send(new DeleteMessageCommand({ QueueUrl: capture, ReceiptHandle: m.ReceiptHandle! }));
  return Messages.map((m) => ({ body: m.Body!, attributes: m.MessageAttributes ?? {} }));
}

beforeAll(async () => {
  ops = await startOpsCloud({ namePrefix: "age" });
  const { QueueUrl } = await ops.cloud.clients.sqs.send(new CreateQueueCommand({ QueueName: "age-capture" }));
  capture = QueueUrl!;
  ctx = { ...ops.ctx, outputs: { ...ops.ctx.outputs, queue_url: capture } };
}, 30_000);

afterAll(async () => ops?.stop());

afterEach(async () => {
  // Every case leaves the DLQ as it found it: empty.
  await redriveDlq({ ...ctx, now: () => Date.now() }, { force: true });
  await drainCapture();
});

describe("dlq redrive: the safe age", () => {
  it("refuses a message first sent more than retention − source retention ago, with the figures, and moves nothing", async () => {
    // Arrange: a message the queue's redrive moved (keeps its SentTimestamp), seen on day 10 and a minute.
    await ops.sendToDlq(payment("old-1"));
    const notices: string[] = [];
    // Act
    const result = await redriveDlq(at(10 + 1 / 1440), { onNotice: (line) => notices.push(line) });
    // Assert
    expect(result.moved).toEqual([]);
    expect(result.tooOld.map((e) => e.businessKey)).toHaveLength(1);
    expect(result.window).toEqual({ retentionSeconds: 1209600, messageRetentionSeconds: 345600, maxAgeMs: 10 * DAY_MS });
    expect(notices.join("\n")).toContain("refusing 1 message first sent too long ago (ledger retention 14 d − source queue retention 4 d = 10 d)");
    expect(await drainCapture()).toEqual([]);
  });

  it("moves a message still within the window (day 9), and the copy carries its first send", async () => {
    const sentBefore = Date.now();
    await ops.sendToDlq(payment("young-1"), { traceparent: { DataType: "String", StringValue: "00-abc-def-01" } });
    const result = await redriveDlq(at(9));
    expect(result.tooOld).toEqual([]);
    expect(result.moved).toHaveLength(1);
    const [copy] = await drainCapture();
    const first = Number(copy.attributes.firstSentTimestamp.StringValue);
    expect(copy.attributes.firstSentTimestamp.DataType).toBe("Number");
    expect(first).toBe(result.moved[0].entry.sentAt);
    expect(first).toBeGreaterThanOrEqual(sentBefore - 1000);
    // The producer's own attributes still travel with a retries-exhausted message.
    expect(copy.attributes.traceparent.StringValue).toBe("00-abc-def-01");
  });

  it("reads the first send from firstSentTimestamp before SentTimestamp, so the age survives repeated redrives", async () => {
    // Arrange: a copy that was quarantined again after an earlier redrive: recent SentTimestamp, first sent 11 days ago.
    const firstSent = Date.now() - 11 * DAY_MS;
    await ops.sendToDlq(payment("cycled-1"), {
      reason: { DataType: "String", StringValue: "rejected" },
      firstSentTimestamp: { DataType: "Number", StringValue: String(firstSent) },
    });
    // Act
    const refused = await redriveDlq(at(0));
    const forcedWarnings: string[] = [];
    const forced = await redriveDlq(at(0), { force: true, onWarning: (line) => forcedWarnings.push(line) });
    // Assert
    expect(refused.tooOld.map((e) => e.firstSentAt)).toEqual([firstSent]);
    expect(refused.moved).toEqual([]);
    expect(forced.moved).toHaveLength(1);
    expect(forcedWarnings).toHaveLength(1);
    expect(forcedWarnings[0]).toMatch(/^WARNING: --force replays .*first sent .*\(11 d ago\).* it will be applied AGAIN$/);
    const [copy] = await drainCapture();
    expect(copy.attributes.firstSentTimestamp.StringValue).toBe(String(firstSent));
    // A quarantined message's own attributes (reason…) do not travel.
    expect(copy.attributes.reason).toBeUndefined();
  });

  it("CLI: exit 1 with the refusal on stderr; --force moves it with a WARNING line", async () => {
    await ops.sendToDlq(payment("cli-old"), { firstSentTimestamp: { DataType: "Number", StringValue: String(Date.now() - 12 * DAY_MS) } });
    const stateFile = writeStateFile(
      { version: 1, pid: process.pid, startedAt: new Date().toISOString(), stackFile: "unused", region: ops.cloud.region, endpoints: ops.cloud.endpoints, outputs: ctx.outputs },
      join(ops.stateFile, "..", "capture-state.json"),
    );
    const refused = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", stateFile], refused.io)).toBe(ExitCode.Failure);
    expect(refused.err.join("\n")).toMatch(/note: refusing 1 message first sent too long ago/);
    expect(refused.err.join("\n")).toMatch(/nothing to redrive: no DLQ message can be moved without --force/);
    const forced = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", stateFile, "--force"], forced.io)).toBe(ExitCode.Ok);
    expect(forced.err.filter((line) => line.startsWith("WARNING: --force replays"))).toHaveLength(1);
    expect(await drainCapture()).toHaveLength(1);
  });

  it("refuses to guess without the stack's retention outputs (a stack deployed before they existed)", async () => {
    const { retention_seconds: _omitted, ...older } = ctx.outputs as Record<string, unknown>;
    await expect(redriveDlq({ ...ctx, outputs: older })).rejects.toThrow(TargetError);
    await expect(redriveDlq({ ...ctx, outputs: older })).rejects.toThrow(/"retention_seconds" output \(whole seconds\): deploy the stack again/);
  });
});
