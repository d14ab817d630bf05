/**
 * An upgrade that lowers maxMessageBytes shrinks the source queue in place (0.2's default was 120 KiB, this release's
 * 6 KiB), and the DLQ still holds what 0.2 quarantined. On the local cloud, with the real SDK: a 10 KB message
 * quarantined under 0.2's size is refused by `dlq redrive --force` (the queue cannot take it) with the true reason,
 * a resend by hand is refused by the queue, and `dlq redrive --direct` delivers it to the state machine, applied
 * once; a second copy is answered as a duplicate; a record the workflow hands back for retry keeps its DLQ copy.
 */
import { GetQueueAttributesCommand, SendMessageCommand, SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { sourceQueueMaxBytes } from "@effectively-once/contract";
import { readEffects } from "@effectively-once/local-cloud/harness";
import { redriveDlq, type OpsContext } from "../src";
import { payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

/** 0.2's default maxMessageBytes. */
const OLD_MAX_MESSAGE_BYTES = 120 * 1024;

let ops: OpsCloud;
let ctx: OpsContext;
let queueMax: number;
const queueUrl = () => ops.cloud.outputs.queue_url as string;
const dlqUrl = () => ops.cloud.outputs.dlq_url as string;

async function depth(url: string): Promise<number> {
  const { Attributes } = await ops.cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }));
  return Number(Attributes!.ApproximateNumberOfMessages) + Number(Attributes!.ApproximateNumberOfMessagesNotVisible);
}

const setQueueMax = (bytes: number) => ops.cloud.clients.sqs.send(new SetQueueAttributesCommand({ QueueUrl: queueUrl(), Attributes: { MaximumMessageSize: String(bytes) } }));

/** A 10 KB payments body (within 0.2's limit, over this release's). */
const large = (orderId: string) => ({ ...payment(orderId), note: "x".repeat(10_000) });

async function appliedTimes(orderId: string): Promise<number> {
  const effects = await readEffects(ops.cloud.clients.dynamodb, ops.cloud.outputs.effects_table_name as string);
  return [...effects].filter(([key]) => key.includes(`"${orderId}"`)).reduce((n, [, e]) => n + e.effects.length, 0);
}

beforeAll(async () => {
  // The first message's invocations fail with a permanent error (twice: its batch's invocation, failing as a whole,
  // and then its own, as the workflow invokes each record of such a batch alone): the 10 KB message is quarantined
  // as `rejected`, as 0.2 did.
  ops = await startOpsCloud({
    faults: { seed: 1, rules: [{ service: "lambda", function: "ops-charge", action: "fail", when: "before", times: 2, errorType: "PipelineRejected", errorMessage: "injected permanent failure" }] },
  });
  ctx = ops.ctx;
  queueMax = Number((await ops.cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl(), AttributeNames: ["MaximumMessageSize"] }))).Attributes!.MaximumMessageSize);
  // Release 0.2's queue, then the upgrade's in-place shrink.
  await setQueueMax(sourceQueueMaxBytes(OLD_MAX_MESSAGE_BYTES));
  const id = await ops.send(large("big-1"));
  expect(await ops.outcome(id)).toMatchObject({ outcome: "quarantined", reason: "rejected" });
  await setQueueMax(queueMax);
}, 60_000);

afterAll(async () => ops?.stop());

describe("dlq redrive of a copy an earlier release admitted", () => {
  it("refuses it through the queue, even with --force, saying the queue shrank (not that the message was over the limit); a resend by hand is refused too", async () => {
    const result = await redriveDlq(ctx, { force: true });
    expect(result.moved).toEqual([]);
    expect(result.unsafe).toHaveLength(1);
    expect(result.unsafe[0].why).toMatch(new RegExp(`over the source queue's maximum of ${queueMax} today`));
    expect(result.unsafe[0].why).toContain("pass --direct");
    expect(result.unsafe[0].why).not.toContain("over the documented limit");
    await expect(ops.cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(large("big-1")) }))).rejects.toThrow();
    expect(await depth(dlqUrl())).toBe(1);
  });

  it("--direct delivers it to the state machine: applied once, the DLQ copy deleted only after the answer", async () => {
    const dry = await redriveDlq(ctx, { direct: true, dryRun: true });
    expect(dry.moved.map((m) => m.route)).toEqual(["direct"]);
    expect(await depth(dlqUrl())).toBe(1);

    const result = await redriveDlq(ctx, { direct: true });
    expect(result.failed).toEqual([]);
    expect(result.moved).toEqual([expect.objectContaining({ route: "direct", newMessageId: expect.any(String) })]);
    expect(await ops.outcome(result.moved[0].newMessageId!)).toMatchObject({ outcome: "processed" });
    expect(await depth(dlqUrl())).toBe(0);
    expect(await depth(queueUrl())).toBe(0);
    expect(await appliedTimes("big-1")).toBe(1);
  });

  it("a second copy of the applied key is answered as a duplicate, deleted, and not applied again", async () => {
    await ops.quarantine(large("big-1"), { reason: { DataType: "String", StringValue: "rejected" }, businessKey: { DataType: "String", StringValue: '["t1","big-1"]' } });
    const result = await redriveDlq(ctx, { direct: true });
    expect(result.moved).toHaveLength(1);
    expect(await ops.outcome(result.moved[0].newMessageId!)).toMatchObject({ outcome: "duplicate" });
    expect(await depth(dlqUrl())).toBe(0);
    expect(await appliedTimes("big-1")).toBe(1);
  });

  it("keeps the DLQ copy when the workflow hands the record back for retry (its key is claimed elsewhere)", async () => {
    // Another worker holds the key: an IN_PROGRESS claim whose lease has not run out.
    const now = Math.floor(Date.now() / 1000);
    const { PutCommand } = await import("@aws-sdk/lib-dynamodb");
    await ops.ctx.dynamodb.send(
      new PutCommand({ TableName: ops.cloud.outputs.ledger_table_name as string, Item: { pk: '["t1","big-2"]', sk: "charge", status: "IN_PROGRESS", owner: "other", claimId: "other", payloadHash: "h", claimedAt: now, leaseExpiresAt: now + 3600, expiresAt: now + 86_400 } }),
    );
    await ops.quarantine(large("big-2"), { reason: { DataType: "String", StringValue: "rejected" }, businessKey: { DataType: "String", StringValue: '["t1","big-2"]' } });
    const result = await redriveDlq(ctx, { direct: true, force: true });
    expect(result.moved).toEqual([]);
    expect(result.failed).toEqual([expect.objectContaining({ sent: false, error: expect.stringContaining("asked for a retry") })]);
    expect(await depth(dlqUrl())).toBe(1);
    expect(await appliedTimes("big-2")).toBe(0);
  });

  it("refuses --direct on a FIFO stack", async () => {
    await expect(redriveDlq({ ...ctx, outputs: { ...ctx.outputs, queue_url: `${queueUrl()}.fifo` } }, { direct: true })).rejects.toThrow(/refusing --direct on a FIFO stack/);
  });
});
