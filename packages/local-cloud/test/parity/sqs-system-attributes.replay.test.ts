// Replays of LocalStack's AWS-validated SQS tests (Apache-2.0; tests/aws/services/sqs/test_sqs.py, recordings in
// test_sqs.snapshot.json): system attributes (AWSTraceHeader, DeadLetterQueueSourceArn, MD5OfMessageSystemAttributes)
// and the dead-letter queue. Tests without a snapshot replay the recorded test's assertions (`markers.aws.validated`,
// no validation date).
import { ListDeadLetterSourceQueuesCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import type { Message } from "@aws-sdk/client-sqs";
import { answer, expectReplay, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";

const sqs = useLocalSqs("replay");
const TRACE = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";

async function redrivenPair(maxReceiveCount: number, extra: Record<string, string> = {}) {
  const dlq = await sqs.createQueue();
  const dlqArn = await sqs.arnOf(dlq);
  const source = await sqs.createQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount }), ...extra });
  return { dlq, dlqArn, source, sourceArn: await sqs.arnOf(source) };
}

describe("AWSTraceHeader (recorded on AWS)", () => {
  it("is taken from the X-Amzn-Trace-Id header of SendMessage and returned when asked for", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_aws_trace_header_propagation[sqs]");
    const trace = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1";
    const url = await sqs.createQueue();
    const send = new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes: { timestamp: { StringValue: "1493147359900", DataType: "Number" } } });
    send.middlewareStack.add((next) => async (args) => {
      (args.request as { headers: Record<string, string> }).headers["X-Amzn-Trace-Id"] = trace;
      return next(args);
    }, { step: "build" });
    await sqs.client.send(send);
    const received = await sqs.client.send(
      new ReceiveMessageCommand({ QueueUrl: url, AttributeNames: ["SentTimestamp", "AWSTraceHeader"] as never, MaxNumberOfMessages: 1, MessageAttributeNames: ["All"], VisibilityTimeout: 2, WaitTimeSeconds: 2 }),
    );
    expect(received.Messages?.[0]?.Attributes?.AWSTraceHeader).toBe(trace);
    expectReplay(rec, { "xray-msg": received.Messages?.[0] });
  });

  it("as a system attribute: MD5OfMessageSystemAttributes on send, MD5OfMessageAttributes unchanged", async () => {
    // test_system_attributes_have_no_effect_on_attr_md5 (validated, no snapshot): its assertions.
    const url = await sqs.createQueue();
    const attributes = { timestamp: { StringValue: "1493147359900", DataType: "Number" } };
    const plain = await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes: attributes }));
    const traced = await sqs.client.send(
      new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes: attributes, MessageSystemAttributes: { AWSTraceHeader: { StringValue: TRACE, DataType: "String" } } }),
    );
    expect(traced.MD5OfMessageAttributes).toBe(plain.MD5OfMessageAttributes);
    expect(plain.MD5OfMessageSystemAttributes).toBeUndefined();
    expect(traced.MD5OfMessageSystemAttributes).toBe("5ae4d5d7636402d80f4eb6d213245a88");
  });
});

describe("The dead-letter queue (recorded on AWS)", () => {
  it("a dead-lettered message keeps its attributes and trace header and names its source queue", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_dead_letter_queue_message_attributes");
    const { dlq, dlqArn, source, sourceArn } = await redrivenPair(1);
    await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: source,
        MessageBody: "message-1",
        MessageSystemAttributes: { AWSTraceHeader: { StringValue: TRACE, DataType: "String" } },
        MessageAttributes: { MyAttribute: { StringValue: "foobar", DataType: "String" } },
      }),
    );
    await sqs.client.send(new SendMessageCommand({ QueueUrl: source, MessageBody: "message-2" }));
    const withoutSender = (messages: Message[]) =>
      messages
        .sort((a, b) => String(a.Body).localeCompare(String(b.Body)))
        .map((m) => {
          const { SenderId: _sender, ...attributes } = m.Attributes ?? {};
          return { ...m, Attributes: attributes };
        });
    const before: Message[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { Messages = [] } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source, VisibilityTimeout: 0, AttributeNames: ["All"], MessageAttributeNames: ["All"] }));
      before.push(...Messages);
    }
    const after: Message[] = [];
    for (let i = 0; i < 5 && after.length < 2; i += 1) {
      const { Messages = [] } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, AttributeNames: ["All"], MessageAttributeNames: ["All"] }));
      after.push(...Messages);
    }
    expectReplay(rec, { "dlq-arn": dlqArn, "sourcen-arn": sourceArn, "rec-pre-dlq": withoutSender(before), "dlq-messages": withoutSender(after) });
  });

  it("ListDeadLetterSourceQueues names every queue whose redrive policy targets the DLQ", async () => {
    // test_dead_letter_queue_list_sources (validated, no snapshot): its assertions.
    const dlq = await sqs.createQueue();
    const policy = { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await sqs.arnOf(dlq), maxReceiveCount: 50 }) };
    const first = await sqs.createQueue(policy);
    const second = await sqs.createQueue(policy);
    await sqs.createQueue();
    const { queueUrls } = await sqs.client.send(new ListDeadLetterSourceQueuesCommand({ QueueUrl: dlq }));
    expect([...(queueUrls ?? [])].sort()).toEqual([first, second].sort());
  });

  it("the message moves after maxReceiveCount receives, with its message id", async () => {
    // test_dead_letter_queue_max_receive_count (validated, no snapshot): its assertions.
    const dlq = await sqs.createQueue({ VisibilityTimeout: "0" });
    const source = await sqs.createQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await sqs.arnOf(dlq), maxReceiveCount: 1 }), VisibilityTimeout: "0" });
    const { MessageId } = await sqs.client.send(new SendMessageCommand({ QueueUrl: source, MessageBody: "test" }));
    const first = (await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source }))).Messages;
    const second = (await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source }))).Messages;
    expect([first?.length ?? 0, second?.length ?? 0]).toEqual([1, 0]);
    const moved = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq }));
    expect(moved.Messages?.[0]?.MessageId).toBe(MessageId);
    expect(answer(moved)).toMatchObject({ ResponseMetadata: { HTTPStatusCode: 200 } });
  });
});
