import { ReceiveMessageCommand, SendMessageCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { fifoCopyFields, redriveDlq } from "@effectively-once/ops";
import type { OpsContext } from "@effectively-once/ops";
import { OutputName } from "@effectively-once/contract";
import { SimSqs } from "../../src/sqs/service";
import { VirtualClock } from "../../src/clock/virtual-clock";

/**
 * `pipeline-ops dlq redrive` on FIFO queues (the simulation's SQS, held to the local SQS's FIFO rules by the SQS
 * contract): a group's copies go back in the DLQ's order, each with its group and a deduplication id of its own, and a
 * group's moves stop at its first message that stays.
 */
const DAY = 86_400_000;
const WORKFLOW = "AROAWORKFLOWROLE0001";
const Q = { url: "http://sqs.test/000000000000/q.fifo", arn: "arn:aws:sqs:us-east-1:000000000000:q.fifo" };
const DLQ = { url: "http://sqs.test/000000000000/dlq.fifo", arn: "arn:aws:sqs:us-east-1:000000000000:dlq.fifo" };
const STANDARD = { url: "http://sqs.test/000000000000/q", arn: "arn:aws:sqs:us-east-1:000000000000:q" };
const STANDARD_DLQ = { url: "http://sqs.test/000000000000/dlq", arn: "arn:aws:sqs:us-east-1:000000000000:dlq" };

function setUp(fifo = true) {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const sqs = new SimSqs(clock);
  const [q, dlq] = fifo ? [Q, DLQ] : [STANDARD, STANDARD_DLQ];
  const fifoConfig = fifo ? { fifo: { contentBasedDeduplication: false, deduplicationScope: "queue" as const } } : {};
  sqs.addQueue({ ...dlq, ...fifoConfig, visibilityTimeoutSeconds: 30, retentionSeconds: 14 * 86_400, maxMessageBytes: 262_144 });
  sqs.addQueue({ ...q, ...fifoConfig, visibilityTimeoutSeconds: 30, retentionSeconds: 4 * 86_400, maxMessageBytes: 262_144, redrive: { deadLetterUrl: dlq.url, maxReceiveCount: 5 } });
  const ctx: OpsContext = {
    sqs: sqs.clientAs("AIDAOPERATOR"),
    dynamodb: undefined as unknown as DynamoDBDocumentClient,
    // No ledger outputs: the age rules alone decide (as for a stack from before them).
    outputs: {
      [OutputName.QueueUrl]: q.url,
      [OutputName.DlqUrl]: dlq.url,
      [OutputName.RetentionSeconds]: 18 * 86_400,
      [OutputName.MessageRetentionSeconds]: 4 * 86_400,
      [OutputName.WorkflowRoleId]: WORKFLOW,
      [OutputName.FilterPatterns]: "[]",
      [OutputName.Operation]: "charge",
      [OutputName.BusinessKeyExpression]: "[tenantId, orderId]",
    },
    targetLabel: "test",
    now: () => clock.now(),
  };
  const text = (value: string): MessageAttributeValue => ({ DataType: "String", StringValue: value });
  /** A quarantine copy, as the workflow sends it in FIFO mode. */
  const quarantine = (body: string, group: string, reason: string, original: string) =>
    sqs.clientAs(`${WORKFLOW}:wf`).send(
      new SendMessageCommand({
        QueueUrl: dlq.url,
        MessageBody: body,
        MessageGroupId: fifo ? group : undefined,
        MessageDeduplicationId: fifo ? `q-${original}` : undefined,
        MessageAttributes: { reason: text(reason), originalMessageId: text(original), firstSentTimestamp: { DataType: "Number", StringValue: String(clock.now()) } },
      }),
    );
  const sourceBodies = async () => ((await sqs.clientAs("reader").send(new ReceiveMessageCommand({ QueueUrl: q.url, MaxNumberOfMessages: 10, AttributeNames: ["All"] }))).Messages ?? []).map((m) => [m.Body, m.Attributes?.MessageGroupId]);
  return { clock, sqs, ctx, quarantine, sourceBodies, q, dlq };
}

describe("dlq redrive on FIFO queues", () => {
  it("moves a group's messages in the DLQ's order, each with its group and a deduplication id named after its DLQ message", async () => {
    const { ctx, quarantine, sourceBodies, sqs } = setUp();
    await quarantine("g-1", "g", "rejected", "m1");
    await quarantine("h-1", "h", "rejected", "m2");
    await quarantine("g-2", "g", "invalid-message", "m3");
    await quarantine("g-3", "g", "rejected", "m4");
    const result = await redriveDlq(ctx);
    expect(result.moved.map((m) => m.entry.body)).toEqual(["g-1", "g-2", "g-3", "h-1"]);
    expect((await sourceBodies()).filter(([, group]) => group === "g")).toEqual([["g-1", "g"], ["g-2", "g"], ["g-3", "g"]]);
    const dedups = sqs.messages(Q.url).map((m) => m.deduplicationId);
    expect(new Set(dedups).size).toBe(4);
    expect(dedups.every((d) => d?.startsWith("eo-redrive-"))).toBe(true);
  });

  it("stops a group at its first message that stays: a later one would be applied before it", async () => {
    const { ctx, quarantine } = setUp();
    await quarantine("g-1", "g", "payload-mismatch", "m1");
    await quarantine("g-2", "g", "rejected", "m2");
    await quarantine("h-1", "h", "rejected", "m3");
    const result = await redriveDlq(ctx);
    expect(result.moved.map((m) => m.entry.body)).toEqual(["h-1"]);
    expect(result.skipped.map((e) => e.body)).toEqual(["g-1"]);
    expect(result.unsafe.map((u) => [u.entry.body, u.why])).toEqual([["g-2", expect.stringMatching(/^it is behind m1 in its message group "g", which stays in the DLQ/)]]);
    // With --force the mismatch goes first, and its group follows in order.
    const forced = await redriveDlq(ctx, { force: true });
    expect(forced.moved.map((m) => m.entry.body)).toEqual(["g-1", "g-2"]);
  });

  it("takes a copy SQS moved to a FIFO DLQ as first sent a source retention before its SentTimestamp (AWS resets its enqueue time)", async () => {
    for (const fifo of [true, false]) {
      const { ctx, sqs, clock, q } = setUp(fifo);
      await sqs.clientAs("AROAPRODUCER:p").send(new SendMessageCommand({ QueueUrl: q.url, MessageBody: "{}", MessageGroupId: fifo ? "g" : undefined, MessageDeduplicationId: fifo ? "p1" : undefined }));
      for (let receive = 0; receive <= 5; receive += 1) {
        await sqs.clientAs("pipe").send(new ReceiveMessageCommand({ QueueUrl: q.url, VisibilityTimeout: 0 }));
      }
      clock.jump(DAY / 24);
      const result = await redriveDlq(ctx);
      // Standard: its SentTimestamp is its first send, an hour ago: it moves. FIFO: it may be the move's, so not proven.
      expect([fifo, result.moved.length, result.unsafe.length]).toEqual(fifo ? [true, 0, 1] : [false, 1, 0]);
      if (!fifo) continue;
      // Forced, the copy carries that first send on, so a later redrive of it starts from the same bound.
      const sentAt = Number(sqs.messages(DLQ.url)[0].sentAt);
      await redriveDlq(ctx, { force: true });
      expect(sqs.messages(Q.url)[0].attributes?.firstSentTimestamp?.StringValue).toBe(String(sentAt - 4 * DAY));
    }
  });

  it("gives a resend of the same copy the same deduplication id, and every other copy its own", () => {
    const entry = { messageId: "dlq-1", groupId: "g", reason: "rejected", originalMessageId: "m1", body: "{}" };
    expect(fifoCopyFields(Q.url, entry)).toEqual(fifoCopyFields(Q.url, { ...entry }));
    expect(fifoCopyFields(Q.url, entry).MessageDeduplicationId).not.toBe(fifoCopyFields(Q.url, { ...entry, messageId: "dlq-2" }).MessageDeduplicationId);
    expect(fifoCopyFields(STANDARD.url, entry)).toEqual({});
  });
});
