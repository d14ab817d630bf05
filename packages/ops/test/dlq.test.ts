/** dlq list / dlq redrive against the local cloud: quarantined for real, listed without consuming, redriven to success. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DlqReason } from "@effectively-once/contract";
import { ExitCode, listDlq, redriveDlq, RefusedError, renderDlqList, runCli } from "../src";
import { waitFor } from "@effectively-once/testing";
import { captureIo, payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

const exec = promisify(execFile);
const root = join(__dirname, "..", "..", "..");

let ops: OpsCloud;
const ids: Record<string, string> = {};

async function dlqDepth(): Promise<number> {
  const { Attributes } = await ops.cloud.clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: ops.cloud.outputs.dlq_url as string, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }),
  );
  return Number(Attributes!.ApproximateNumberOfMessages) + Number(Attributes!.ApproximateNumberOfMessagesNotVisible);
}

beforeAll(async () => {
  // The first message's invocations fail with a permanent error (twice: its batch's invocation, failing as a whole,
  // and then its own, as the workflow invokes each record of such a batch alone): it is quarantined as `rejected`,
  // and a redriven copy succeeds, as it would after an operator fixed the cause.
  ops = await startOpsCloud({
    faults: { seed: 1, rules: [{ service: "lambda", function: "ops-charge", action: "fail", when: "before", times: 2, errorType: "PipelineRejected", errorMessage: "injected permanent failure" }] },
  });
  ids.rejected = await ops.send(payment("rej"));
  expect(await ops.outcome(ids.rejected)).toMatchObject({ outcome: "quarantined", reason: "rejected" });
  ids.applied = await ops.send(payment("ok", 100));
  ids.invalid = await ops.send("not json");
  expect(await ops.outcome(ids.applied)).toMatchObject({ outcome: "processed" });
  ids.mismatch = await ops.send(payment("ok", 999));
  expect((await Promise.all([ops.outcome(ids.invalid), ops.outcome(ids.mismatch)])).map((o) => o.reason)).toEqual(["invalid-message", "payload-mismatch"]);
  ids.exhausted = await ops.sendToDlq(payment("exh", 5), { traceparent: { DataType: "String", StringValue: "00-abc-def-01" } });
}, 30_000);

afterAll(async () => ops?.stop());

describe("dlq list", () => {
  it("reports reason, business key, original message id and age of every message, and consumes none", async () => {
    const first = await listDlq(ops.ctx);
    const byReason = Object.fromEntries(first.messages.map((m) => [m.reason, m]));
    expect(Object.keys(byReason).sort()).toEqual(["invalid-message", "payload-mismatch", "rejected", "retries-exhausted"]);
    expect(byReason.rejected).toMatchObject({ businessKey: '["t1","rej"]', keySource: "attribute", originalMessageId: ids.rejected });
    expect(byReason.rejected.detail).toContain("injected permanent failure");
    expect(byReason["payload-mismatch"]).toMatchObject({ businessKey: '["t1","ok"]', originalMessageId: ids.mismatch });
    expect(byReason["payload-mismatch"].detail).toContain(ids.applied);
    expect(byReason["invalid-message"].businessKey).toBeUndefined();
    expect(byReason["invalid-message"].originalMessageId).toBe(ids.invalid);
    // No reason attribute: moved by the queue's redrive; its key comes from the body.
    expect(byReason["retries-exhausted"]).toMatchObject({ businessKey: '["t1","exh"]', keySource: "body", originalMessageId: ids.exhausted });
    for (const m of first.messages) expect(m.ageMs).toBeGreaterThanOrEqual(0);
    expect(first.byReason).toEqual({ rejected: 1, "invalid-message": 1, "payload-mismatch": 1, "retries-exhausted": 1 });

    // Visible again at once, all of them: a second listing sees the same messages.
    expect(await dlqDepth()).toBe(4);
    const second = await listDlq(ops.ctx);
    expect(second.messages.map((m) => m.messageId).sort()).toEqual(first.messages.map((m) => m.messageId).sort());

    const text = renderDlqList(second);
    expect(text).toContain("4 messages");
    expect(text).toMatch(/rejected\s+\["t1","rej"\]\s+/);
    expect(text).toContain('["t1","exh"] *');
  });

  it("filters by reason and key, and bounds the scan with max", async () => {
    expect((await listDlq(ops.ctx, { reason: DlqReason.Rejected })).messages.map((m) => m.originalMessageId)).toEqual([ids.rejected]);
    expect((await listDlq(ops.ctx, { key: '["t1","ok"]' })).messages.map((m) => m.reason)).toEqual(["payload-mismatch"]);
    expect((await listDlq(ops.ctx, { key: '["t1","none"]' })).messages).toEqual([]);
    const bounded = await listDlq(ops.ctx, { max: 2 });
    expect(bounded).toMatchObject({ scanned: 2, truncated: true });
    expect(await dlqDepth()).toBe(4);
    expect((await listDlq(ops.ctx)).messages).toHaveLength(4);
  });
});

describe("dlq redrive", () => {
  it("refuses payload-mismatch without force and moves nothing", async () => {
    await expect(redriveDlq(ops.ctx, { reason: DlqReason.PayloadMismatch })).rejects.toThrow(RefusedError);
    await expect(redriveDlq(ops.ctx, { reason: DlqReason.PayloadMismatch })).rejects.toThrow(/already applied with another payload/);
    expect(await dlqDepth()).toBe(4);
  });

  it("dry run: says what would move, skips payload-mismatch, reminds before rejected, sends and deletes nothing", async () => {
    const notices: string[] = [];
    const result = await redriveDlq(ops.ctx, { dryRun: true, onNotice: (line) => notices.push(line) });
    expect(result.moved.map((m) => m.entry.reason).sort()).toEqual(["invalid-message", "rejected", "retries-exhausted"]);
    expect(result.skipped.map((m) => m.reason)).toEqual(["payload-mismatch"]);
    expect(notices.join("\n")).toMatch(/rejected message: .*Fix the cause first/);
    expect(notices.join("\n")).toMatch(/skipping 1 payload-mismatch message/);
    expect(await dlqDepth()).toBe(4);
  });

  it("moves a rejected message back once its cause is gone, and it is applied exactly once", async () => {
    const result = await redriveDlq(ops.ctx, { reason: DlqReason.Rejected });
    expect(result.failed).toEqual([]);
    expect(result.moved).toHaveLength(1);
    const copy = result.moved[0].newMessageId!;
    expect(await ops.outcome(copy)).toMatchObject({ outcome: "processed" });

    const effects = await ops.ctx.dynamodb.send(
      new QueryCommand({ TableName: ops.cloud.outputs.effects_table_name as string, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": '["t1","rej"]#charge' } }),
    );
    expect(effects.Items!.filter((i) => i.sk === "EFFECT")).toHaveLength(1);
    expect(effects.Items!.filter((i) => String(i.sk).startsWith("CALL#")).map((i) => i.outcome)).toEqual(["applied"]);
    const ledger = await ops.ctx.dynamodb.send(new GetCommand({ TableName: ops.cloud.outputs.ledger_table_name as string, Key: { pk: '["t1","rej"]', sk: "charge" } }));
    expect(ledger.Item).toMatchObject({ status: "COMPLETED", owner: copy });
    // Deleted from the DLQ after the send.
    const left = await listDlq(ops.ctx);
    expect(left.messages.map((m) => m.reason).sort()).toEqual(["invalid-message", "payload-mismatch", "retries-exhausted"]);
  });

  it("with --force replays payload-mismatch, which is quarantined again: the reason for the refusal", async () => {
    const result = await redriveDlq(ops.ctx, { reason: DlqReason.PayloadMismatch, force: true });
    expect(result.moved).toHaveLength(1);
    expect(await ops.outcome(result.moved[0].newMessageId!)).toMatchObject({ outcome: "quarantined", reason: "payload-mismatch" });
    const back = await waitFor(async () => (await listDlq(ops.ctx, { reason: DlqReason.PayloadMismatch })).messages[0]);
    expect(back.originalMessageId).toBe(result.moved[0].newMessageId);
  });

  it("selects by key and reports nothing to move as exit 1 with one line", async () => {
    const cli = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", ops.stateFile, "--key", '["t1","none"]'], cli.io)).toBe(ExitCode.Failure);
    expect(cli.err).toHaveLength(1);
    expect(cli.err[0]).toMatch(/^pipeline-ops: nothing to redrive: no DLQ message matches --key \["t1","none"\] \(\d+ scanned\)$/);

    const result = await redriveDlq(ops.ctx, { key: '["t1","exh"]' });
    expect(result.moved.map((m) => m.entry.reason)).toEqual(["retries-exhausted"]);
    expect(await ops.outcome(result.moved[0].newMessageId!)).toMatchObject({ outcome: "processed" });
  });
});

describe("dlq scan", () => {
  it("pages past the first ten messages (held while scanning, visible again after)", async () => {
    const before = (await listDlq(ops.ctx)).messages.length;
    await Promise.all(Array.from({ length: 12 }, (_, i) => ops.sendToDlq(payment(`bulk-${i}`))));
    const listed = await listDlq(ops.ctx);
    expect(listed.messages).toHaveLength(before + 12);
    expect(new Set(listed.messages.map((m) => m.messageId)).size).toBe(before + 12);
    expect(await dlqDepth()).toBe(before + 12);
  });
});

describe("CLI entry (spawned)", () => {
  it("lists the DLQ of a running local cloud as JSON through bin/pipeline-ops.js", async () => {
    const { stdout, stderr } = await exec(process.execPath, [join(root, "packages", "ops", "bin", "pipeline-ops.js"), "dlq", "list", "--state", ops.stateFile, "--json", "--reason", "invalid-message"], {
      cwd: root,
    });
    expect(stderr).toBe("");
    const listed = JSON.parse(stdout) as { messages: { reason: string; originalMessageId: string }[] };
    expect(listed.messages).toEqual([expect.objectContaining({ reason: "invalid-message", originalMessageId: ids.invalid })]);
  });
});
