import { GetQueueAttributesCommand, ListMessageMoveTasksCommand, ReceiveMessageCommand, SendMessageCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { sharedClock } from "../../src/clock";
import { waitFor } from "@effectively-once/testing";
import { useLocalSqs } from "../support/local-sqs";

// What a message move keeps and what it renews, per the SQS Developer Guide ("configure dead-letter queue redrive":
// "The redrive task resets the retention period. All redriven messages are considered new messages with a new
// messageID and enqueueTime"). The replays of AWS's recorded move tasks are in packages/local-cloud/test/parity.
const sqs = useLocalSqs("move");
const TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

async function deadLetteredOne(retentionSeconds: number) {
  const dlq = await sqs.createQueue({ MessageRetentionPeriod: String(retentionSeconds) });
  const dlqArn = await sqs.arnOf(dlq);
  const source = await sqs.createQueue({ MessageRetentionPeriod: String(retentionSeconds), RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 1 }) });
  const sent = await sqs.client.send(
    new SendMessageCommand({
      QueueUrl: source,
      MessageBody: "poison",
      MessageAttributes: { tenant: { DataType: "String", StringValue: "t-1" } },
      MessageSystemAttributes: { AWSTraceHeader: { DataType: "String", StringValue: TRACE } },
    }),
  );
  for (let i = 0; i < 2; i += 1) await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source, VisibilityTimeout: 0 }));
  return { dlq, dlqArn, source, sent };
}

const visible = async (QueueUrl: string) =>
  Number((await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }))).Attributes?.ApproximateNumberOfMessages);

describe("Message move tasks: the moved message", () => {
  it("is a new message (new id, new enqueue time, receive count from 0) with the same body, attributes, sender and trace header", async () => {
    const { dlqArn, source, sent } = await deadLetteredOne(600);
    sqs.pass(120);
    const movedAt = sharedClock().now();
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    await waitFor(async () => (await visible(source)) === 1);

    const { Messages = [] } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source, AttributeNames: ["All"], MessageAttributeNames: ["All"] }));

    const [moved] = Messages;
    expect(moved.MessageId).not.toBe(sent.MessageId);
    expect(moved.Body).toBe("poison");
    expect(moved.MessageAttributes).toEqual({ tenant: { DataType: "String", StringValue: "t-1" } });
    expect(Number(moved.Attributes?.SentTimestamp)).toBeGreaterThanOrEqual(movedAt);
    expect(moved.Attributes).toMatchObject({ ApproximateReceiveCount: "1", SenderId: "local", AWSTraceHeader: TRACE });
    expect(moved.Attributes?.DeadLetterQueueSourceArn).toBeUndefined();
  });

  it("starts its retention again: it outlives the original enqueue time + retention", async () => {
    const { dlq, dlqArn, source } = await deadLetteredOne(60);
    sqs.pass(50);
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    await waitFor(async () => (await visible(source)) === 1);
    sqs.pass(30);
    expect(await visible(source)).toBe(1);
    expect(await visible(dlq)).toBe(0);
    sqs.pass(31);
    expect(await visible(source)).toBe(0);
  });

  it("sent to the DLQ directly, with no source queue, fails a task without DestinationArn and stays in the DLQ (AWS unrecorded: SUPPORTED.md)", async () => {
    const { dlq, dlqArn, source } = await deadLetteredOne(600);
    await sqs.client.send(new SendMessageCommand({ QueueUrl: dlq, MessageBody: "quarantined" }));
    const direct = async () => (await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }))).Messages ?? [];
    // The dead-lettered message first, then the direct copy (the queue's order): the first moves, the second fails the task.
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    await waitFor(async () => (await sqs.client.send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results?.[0]?.Status === "FAILED");
    const [task] = (await sqs.client.send(new ListMessageMoveTasksCommand({ SourceArn: dlqArn }))).Results ?? [];
    expect(task).toMatchObject({ Status: "FAILED", ApproximateNumberOfMessagesMoved: 1, FailureReason: "AWS.SimpleQueueService.NonExistentQueue" });
    expect(await visible(source)).toBe(1);
    expect((await direct()).map((m) => m.Body)).toEqual(["quarantined"]);
  });
});
