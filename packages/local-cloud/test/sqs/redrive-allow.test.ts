import { ReceiveMessageCommand, SendMessageCommand, SetQueueAttributesCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { waitFor } from "@effectively-once/testing";
import { useLocalSqs } from "../support/local-sqs";

// RedriveAllowPolicy as the SQS API reference documents it (CreateQueue / SetQueueAttributes): which queues may name a
// queue as their dead-letter queue, `allowAll` by default, `denyAll`, `byQueue`. Any queue may have a redrive policy (a
// DLQ too), and StartMessageMoveTask takes as source any queue that is some queue's DLQ.
const sqs = useLocalSqs("allow");

const redriveTo = (arn: string, maxReceiveCount = 1) => JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount });

describe("RedriveAllowPolicy", () => {
  it("allowAll by default: any queue may name a queue without the attribute as its DLQ", async () => {
    const target = await sqs.newQueue();
    await expect(sqs.newQueue({ RedrivePolicy: redriveTo(target.arn) })).resolves.toBeDefined();
  });

  it("denyAll: no queue may name it, at CreateQueue or SetQueueAttributes, and the refusal names both queues", async () => {
    const target = await sqs.newQueue({ RedriveAllowPolicy: JSON.stringify({ redrivePermission: "denyAll" }) });
    await expect(sqs.newQueue({ RedrivePolicy: redriveTo(target.arn) })).rejects.toMatchObject({ name: "InvalidParameterValue", message: expect.stringContaining(`RedriveAllowPolicy of ${target.arn} (denyAll)`) });
    const other = await sqs.newQueue();
    await expect(sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: other.url, Attributes: { RedrivePolicy: redriveTo(target.arn) } }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
  });

  it("byQueue: only the queues it lists", async () => {
    const listed = await sqs.newQueue();
    const stranger = await sqs.newQueue();
    const target = await sqs.newQueue({ RedriveAllowPolicy: JSON.stringify({ redrivePermission: "byQueue", sourceQueueArns: [listed.arn] }) });
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: listed.url, Attributes: { RedrivePolicy: redriveTo(target.arn) } }));
    await expect(sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: stranger.url, Attributes: { RedrivePolicy: redriveTo(target.arn) } }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
  });

  it.each([
    ["an unknown permission", { redrivePermission: "someQueues" }],
    ["byQueue without queues", { redrivePermission: "byQueue" }],
    ["queues beside denyAll", { redrivePermission: "denyAll", sourceQueueArns: ["arn:aws:sqs:us-east-1:000000000000:x"] }],
  ])("refuses a policy SQS would not take: %s", async (_, policy) => {
    await expect(sqs.newQueue({ RedriveAllowPolicy: JSON.stringify(policy) })).rejects.toMatchObject({ name: "InvalidAttributeValue" });
  });
});

describe("Paths back from a DLQ (docs/guarantees.md)", () => {
  /** A source queue as the stack builds it: its DLQ lets only it in, and it lets nobody in. */
  async function pipelineQueues() {
    const dlq = await sqs.newQueue();
    const source = await sqs.newQueue({ RedrivePolicy: redriveTo(dlq.arn, 5) });
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: { RedriveAllowPolicy: JSON.stringify({ redrivePermission: "byQueue", sourceQueueArns: [source.arn] }) } }));
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: source.url, Attributes: { RedriveAllowPolicy: JSON.stringify({ redrivePermission: "denyAll" }) } }));
    return { dlq, source };
  }

  it("the DLQ's own redrive policy cannot target the source queue once it is denyAll", async () => {
    const { dlq, source } = await pipelineQueues();
    await expect(sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: { RedrivePolicy: redriveTo(source.arn) } }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
  });

  it("through a temporary queue, a move task still reaches the source queue, with the copy's message attributes", async () => {
    // Arrange: a quarantined copy in the DLQ; the DLQ gets a redrive policy of its own to a temporary queue.
    const { dlq, source } = await pipelineQueues();
    const temporary = await sqs.newQueue();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: dlq.url, MessageBody: "{}", MessageAttributes: { reason: { DataType: "String", StringValue: "payload-mismatch" } } }));
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: { RedrivePolicy: redriveTo(temporary.arn) } }));
    // Act: two receives move it to the temporary queue, which is now some queue's DLQ, so a move task takes it anywhere.
    for (let i = 0; i < 2; i += 1) await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, VisibilityTimeout: 0 }));
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: temporary.arn, DestinationArn: source.arn }));
    // Assert: the copy is in the source queue with the quarantine's attribute (the workflow recognises it by it).
    const moved = await waitFor(async () => (await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source.url, MessageAttributeNames: ["All"] }))).Messages?.[0]);
    expect(moved.MessageAttributes?.reason?.StringValue).toBe("payload-mismatch");
  });
});
