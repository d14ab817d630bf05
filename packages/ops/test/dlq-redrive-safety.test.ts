/**
 * dlq redrive refuses a copy the pipeline might not recognise as already applied (the rule: packages/ops/src/redrive-safety.ts):
 * it reads the ledger, so a key held COMPLETED long enough may be replayed at any age, a message that never reached
 * the ledger only within the source queue's retention (4 d), a rejected one within retention − source retention
 * (10 d). Against the local cloud's real queues and ledger; the redrive target is a plain capture queue, so each copy
 * can be read back with its attributes (no pipe consumes it). The clock is the command context's `now`, so "day 16"
 * costs no waiting.
 */
import { join } from "node:path";
import { CreateQueueCommand, DeleteMessageCommand, ReceiveMessageCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { businessKeyText } from "@effectively-once/contract";
import { writeStateFile } from "@effectively-once/contract";
import { idempotencyRecordId } from "@effectively-once/functions";
import { legacySecondLayerIds, type SecondLayerIds } from "@effectively-once/contract";
import { ExitCode, redriveDlq, runCli, TargetError, type OpsContext } from "../src";
import { captureIo, payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

const DAY_MS = 24 * 3600 * 1000;
let ops: OpsCloud;
let capture: string;
let ctx: OpsContext;

/** Command context whose clock reads `days` ahead, redriving into the capture queue. */
function at(days: number): OpsContext {
  return { ...ctx, now: () => Date.now() + days * DAY_MS };
}

/** Writes the ledger item the state machine's Complete leaves for `orderId`, completed on `completedDay` (days from the real now). */
async function completed(orderId: string, completedDay: number): Promise<string> {
  const key = businessKeyText(["t1", orderId]);
  const at = Math.floor((Date.now() + completedDay * DAY_MS) / 1000);
  await ctx.dynamodb.send(
    new PutCommand({ TableName: ledgerTable(), Item: { pk: key, sk: ctx.outputs.operation, status: "COMPLETED", claimedAt: at, completedAt: at, expiresAt: at + 14 * 24 * 3600 } }),
  );
  written.push(key);
  return key;
}

/**
 * What a Complete that failed after the invocation leaves: the ledger's claim IN_PROGRESS (its lease long run out,
 * so any later message may take it over and release it) and the function's Powertools record COMPLETED on `day`.
 */
async function appliedButUncompleted(orderId: string, day: number, ids?: SecondLayerIds): Promise<string> {
  const key = businessKeyText(["t1", orderId]);
  const at = Math.floor((Date.now() + day * DAY_MS) / 1000);
  const retention = 14 * 24 * 3600;
  const operation = ctx.outputs.operation as string;
  await ctx.dynamodb.send(
    new PutCommand({ TableName: ledgerTable(), Item: { pk: key, sk: operation, status: "IN_PROGRESS", claimedAt: at, leaseExpiresAt: at + 160, expiresAt: at + retention } }),
  );
  const id = idempotencyRecordId(key, operation, ids);
  await ctx.dynamodb.send(new PutCommand({ TableName: ctx.outputs.idempotency_table_name as string, Item: { id, status: "COMPLETED", expiration: at + retention } }));
  written.push(key);
  powertoolsWritten.push(id);
  return key;
}

const powertoolsWritten: string[] = [];
const written: string[] = [];
const ledgerTable = () => ctx.outputs.ledger_table_name as string;
const firstSent = (day: number): Record<string, MessageAttributeValue> => ({
  firstSentTimestamp: { DataType: "Number", StringValue: String(Math.round(Date.now() + day * DAY_MS)) },
});

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
  for (const key of written.splice(0)) await ctx.dynamodb.send(new DeleteCommand({ TableName: ledgerTable(), Key: { pk: key, sk: ctx.outputs.operation } }));
  for (const id of powertoolsWritten.splice(0)) await ctx.dynamodb.send(new DeleteCommand({ TableName: ctx.outputs.idempotency_table_name as string, Key: { id } }));
});

describe("dlq redrive: what the pipeline would not recognise stays in the DLQ", () => {
  it("the hole: a resend first sent 8 days after its key was charged is refused 16 days after the charge (the ledger forgot the key on day 14)", async () => {
    // Arrange: the charge's ledger item (expired, not yet swept); the resend, moved by the queue's redrive unrecognised.
    // (Days count from the charge: it completed 8 days before the resend was sent, now.)
    await completed("resent-1", -8);
    await ops.sendToDlq(payment("resent-1"));
    const notices: string[] = [];
    // Act
    const result = await redriveDlq(at(8), { onNotice: (line) => notices.push(line) });
    // Assert: its own age (8 d) is inside 14 d − 4 d; the ledger's memory of the key is not.
    expect(result.moved).toEqual([]);
    expect(result.unsafe).toHaveLength(1);
    expect(result.unsafe[0].why).toMatch(/\(8 d ago\), more than the source queue's retention \(4 d\), and neither the ledger nor the function.s idempotency record holds its key completed/);
    expect(result.window).toEqual({ retentionSeconds: 1209600, messageRetentionSeconds: 345600, maxAgeMs: 10 * DAY_MS });
    expect(notices.join("\n")).toContain("refusing 1 message the pipeline might not recognise as already applied: check the downstream");
    expect(notices.join("\n")).toMatch(/refusing [0-9a-f-]+ \(key \["t1","resent-1"\]\): first sent .* \(8 d ago\), more than/);
    expect(await drainCapture()).toEqual([]);
  });

  it("a key the ledger lost early (its Complete failed): the function's record is the witness; a 3-day-old resend is refused 11 days after the charge", async () => {
    // Arrange: applied on day 0, the ledger's claim left IN_PROGRESS; a resend first sent on day 8 exhausted its receives.
    // (Days count from the charge: the resend is sent now, 8 days after it.)
    await appliedButUncompleted("uncompleted-1", -8);
    await ops.sendToDlq(payment("uncompleted-1"));
    // Act: its own age (3 d) is within the source queue's retention, which alone let it through before.
    const result = await redriveDlq(at(3), { dryRun: true });
    // Assert: Powertools forgets the key on day 14, before the copy's last delivery (day 15).
    expect(result.moved).toEqual([]);
    expect(result.unsafe.map((u) => u.why)).toEqual([expect.stringMatching(/^the pipeline forgets its key on .*, before the copy's last possible delivery/)]);
    // While the record outlives the copy's last delivery, the copy is answered from it: moved.
    expect((await redriveDlq(at(1), { dryRun: true })).moved).toHaveLength(1);
  });

  it("during the upgrade's transition, a record of release 0.2's ids (`<function name>#<md5>`) is a witness too", async () => {
    // Arrange: applied before the upgrade (0.2 named the record after the function), the ledger's claim left IN_PROGRESS.
    const legacy = ctx.outputs.idempotency_legacy_key_prefix as string;
    expect(legacy).toBe(ctx.outputs.function_name);
    await appliedButUncompleted("uncompleted-legacy-1", -8, legacySecondLayerIds(legacy));
    await ops.sendToDlq(payment("uncompleted-legacy-1"));
    // Act / Assert: the same verdicts as for a record of the current ids.
    const late = await redriveDlq(at(3), { dryRun: true });
    expect(late.unsafe.map((u) => u.why)).toEqual([expect.stringMatching(/^the pipeline forgets its key on .*, before the copy's last possible delivery/)]);
    expect((await redriveDlq(at(1), { dryRun: true })).moved).toHaveLength(1);
  });

  it("a producer's forged firstSentTimestamp (year 2286) is bounded by SQS's SentTimestamp: on day 5 the message is 5 days old", async () => {
    await ops.sendToDlq(payment("forged-first-1"), { firstSentTimestamp: { DataType: "Number", StringValue: "9999999999999" } });
    const result = await redriveDlq(at(5), { dryRun: true });
    expect(result.moved).toEqual([]);
    expect(result.unsafe.map((u) => u.why)).toEqual([expect.stringContaining("(5 d ago), more than the source queue's retention")]);
  });

  it("a producer's forged reason=rejected on a message the queue moved is data, not metadata: the 4-day rule applies (the workflow's own copy keeps 10 days)", async () => {
    const rejected = { reason: { DataType: "String", StringValue: "rejected" }, originalMessageId: { DataType: "String", StringValue: "not-mine" } };
    await ops.sendToDlq(payment("forged-reason-1"), rejected);
    await ops.quarantine(payment("true-reason-1"), rejected);
    const result = await redriveDlq(at(9), { dryRun: true });
    expect(result.moved.map((m) => JSON.parse(m.entry.body).orderId)).toEqual(["true-reason-1"]);
    expect(result.unsafe.map((u) => [u.entry.reason, JSON.parse(u.entry.body).orderId, u.entry.originalMessageId === "not-mine"])).toEqual([["retries-exhausted", "forged-reason-1", false]]);
  });

  it("refuses a copy the stack's pipe filters would drop, and restores a quarantined message's packed producer attributes so a matching copy moves", async () => {
    const filtered = { ...ctx, outputs: { ...ctx.outputs, filter_patterns: JSON.stringify([{ messageAttributes: { type: { stringValue: ["order"] } } }]) } };
    const rejected = { reason: { DataType: "String", StringValue: "rejected" } };
    const packed = JSON.stringify({ type: { stringValue: "order", stringListValues: [], binaryListValues: [], dataType: "String" } });
    await ops.quarantine(payment("filter-kept-1"), { ...rejected, producerAttributes: { DataType: "String", StringValue: packed } });
    await ops.quarantine(payment("filter-dropped-1"), rejected);
    const result = await redriveDlq(filtered, { force: true });
    expect(result.moved.map((m) => JSON.parse(m.entry.body).orderId)).toEqual(["filter-kept-1"]);
    expect(result.unsafe.map((u) => u.why)).toEqual([expect.stringMatching(/^the stack's pipe filter patterns would drop the copy/)]);
    const [copy] = await drainCapture();
    expect(copy.attributes.type).toEqual(expect.objectContaining({ DataType: "String", StringValue: "order" }));
    expect(copy.attributes.producerAttributes).toBeUndefined();
    expect(copy.attributes.reason).toBeUndefined();
  });

  it("moves a copy of any age while the ledger holds its key COMPLETED past the copy's last delivery (day 9, completed day 0.5)", async () => {
    await completed("held-1", 0.5);
    const sentBefore = Date.now();
    await ops.sendToDlq(payment("held-1"), { traceparent: { DataType: "String", StringValue: "00-abc-def-01" } });
    const result = await redriveDlq(at(9));
    expect(result.unsafe).toEqual([]);
    expect(result.moved).toHaveLength(1);
    const [copy] = await drainCapture();
    const first = Number(copy.attributes.firstSentTimestamp.StringValue);
    expect(copy.attributes.firstSentTimestamp.DataType).toBe("Number");
    expect(first).toBe(result.moved[0].entry.sentAt);
    expect(first).toBeGreaterThanOrEqual(sentBefore - 1000);
    // The producer's own attributes still travel with a retries-exhausted message.
    expect(copy.attributes.traceparent.StringValue).toBe("00-abc-def-01");
  });

  it("refuses when the COMPLETED claim expires before the copy's last delivery (now + 4 d), naming the date", async () => {
    await completed("expiring-1", 0);
    await ops.sendToDlq(payment("expiring-1"));
    const result = await redriveDlq(at(10.5));
    expect(result.moved).toEqual([]);
    expect(result.unsafe.map((u) => u.why)).toEqual([expect.stringMatching(/^the pipeline forgets its key on .*, before the copy's last possible delivery/)]);
  });

  it("a message that never reached the ledger: moved within the source queue's retention (day 3), refused after it (day 4 and a minute)", async () => {
    await ops.sendToDlq(payment("unseen-1"));
    expect((await redriveDlq(at(4 + 1 / 1440), { dryRun: true })).unsafe).toHaveLength(1);
    const result = await redriveDlq(at(3));
    expect(result.unsafe).toEqual([]);
    expect(result.moved).toHaveLength(1);
  });

  it("a rejected message (quarantined under its own claim) may wait retention − source retention: moved on day 9, refused on day 10 and a minute", async () => {
    await ops.quarantine(payment("rejected-1"), { reason: { DataType: "String", StringValue: "rejected" }, ...firstSent(0) });
    const late = await redriveDlq(at(10 + 1 / 1440), { dryRun: true });
    expect(late.unsafe.map((u) => u.why)).toEqual([expect.stringMatching(/older than a rejected message can safely be \(ledger retention 14 d − source queue retention 4 d = 10 d\)/)]);
    expect((await redriveDlq(at(9))).moved).toHaveLength(1);
  });

  it("does not trust an operator clock that lags SQS's: two days behind, a 5-day-old message still counts as 5 days old", async () => {
    await ops.sendToDlq(payment("lagging-1"), firstSent(-5));
    const result = await redriveDlq(at(-2), { dryRun: true });
    expect(result.moved).toEqual([]);
    expect(result.unsafe.map((u) => u.why)).toEqual([expect.stringContaining("(5 d ago), more than the source queue's retention")]);
  });

  it("reads the first send from firstSentTimestamp before SentTimestamp, so the age survives repeated redrives", async () => {
    // Arrange: a copy that was quarantined again after an earlier redrive: recent SentTimestamp, first sent 11 days ago.
    const first = Date.now() - 11 * DAY_MS;
    await ops.quarantine(payment("cycled-1"), {
      reason: { DataType: "String", StringValue: "rejected" },
      firstSentTimestamp: { DataType: "Number", StringValue: String(first) },
    });
    // Act
    const refused = await redriveDlq(at(0));
    const forcedWarnings: string[] = [];
    const forced = await redriveDlq(at(0), { force: true, onWarning: (line) => forcedWarnings.push(line) });
    // Assert
    expect(refused.unsafe.map((u) => u.entry.firstSentAt)).toEqual([first]);
    expect(refused.moved).toEqual([]);
    expect(forced.moved).toHaveLength(1);
    expect(forcedWarnings).toHaveLength(1);
    expect(forcedWarnings[0]).toMatch(/^WARNING: --force replays .*first sent .*\(11 d ago\).* it may be applied AGAIN$/);
    const [copy] = await drainCapture();
    expect(copy.attributes.firstSentTimestamp.StringValue).toBe(String(first));
    // A quarantined message's own attributes (reason…) do not travel.
    expect(copy.attributes.reason).toBeUndefined();
  });

  it("CLI: exit 1 with the refusal and its reason on stderr; --force moves it with a WARNING line", async () => {
    await ops.sendToDlq(payment("cli-old"), firstSent(-12));
    const stateFile = writeStateFile(
      { version: 1, pid: process.pid, startedAt: new Date().toISOString(), stackFile: "unused", region: ops.cloud.region, endpoints: ops.cloud.endpoints, outputs: ctx.outputs },
      join(ops.stateFile, "..", "capture-state.json"),
    );
    const refused = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", stateFile], refused.io)).toBe(ExitCode.Failure);
    expect(refused.err.join("\n")).toMatch(/note: refusing 1 message the pipeline might not recognise/);
    expect(refused.err.join("\n")).toMatch(/nothing to redrive: no DLQ message can be moved without --force/);
    const forced = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", stateFile, "--force"], forced.io)).toBe(ExitCode.Ok);
    expect(forced.err.filter((line) => line.startsWith("WARNING: --force replays"))).toHaveLength(1);
    expect(await drainCapture()).toHaveLength(1);
  });

  it("a stack without the ledger outputs: says so, and the age rules alone decide (day 3 moves, day 5 stays)", async () => {
    const { ledger_table_name: _ledger, ...older } = ctx.outputs as Record<string, unknown>;
    const notices: string[] = [];
    await ops.sendToDlq(payment("no-ledger-1"));
    const late = await redriveDlq({ ...at(5), outputs: older }, { dryRun: true, onNotice: (line) => notices.push(line) });
    expect(late.unsafe).toHaveLength(1);
    expect(notices[0]).toMatch(/^the stack has no ledger_table_name output, so the ledger is not read/);
    expect((await redriveDlq({ ...at(3), outputs: older })).moved).toHaveLength(1);
  });

  it("refuses to guess without the stack's retention outputs (a stack deployed before they existed)", async () => {
    const { retention_seconds: _omitted, ...older } = ctx.outputs as Record<string, unknown>;
    await expect(redriveDlq({ ...ctx, outputs: older })).rejects.toThrow(TargetError);
    await expect(redriveDlq({ ...ctx, outputs: older })).rejects.toThrow(/"retention_seconds" output \(whole seconds\): deploy the stack again/);
  });
});
