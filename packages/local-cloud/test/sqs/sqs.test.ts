import {
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { sharedClock } from "../../src/clock";
import { createQueueAttributesFromTerraform } from "../../src/sqs";
import { useLocalSqs } from "../support/local-sqs";

const sqs = useLocalSqs("q");

const receive = (url: string, extra: Partial<ConstructorParameters<typeof ReceiveMessageCommand>[0]> = {}) =>
  sqs.client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
      ...extra,
    }),
  );

describe("Function: startSqs", () => {
  it("listens on 127.0.0.1 and returns queue URLs on *.localhost that the client reaches through its endpoint", async () => {
    const { url, name } = await sqs.newQueue();
    expect(sqs.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).toBe(`http://sqs.us-east-1.localhost:${sqs.port}/000000000000/${name}`);
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "hello" }));
    const { Messages } = await receive(url);
    expect(Messages?.map((m) => m.Body)).toEqual(["hello"]);
  });
});

describe("SQS behaviour through fauxqs", () => {
  it("hides a received message for the visibility timeout, then delivers it again", async () => {
    // Arrange
    const { url } = await sqs.newQueue({ VisibilityTimeout: "60" });
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "m" }));
    // Act
    const first = await receive(url);
    const whileHidden = await receive(url);
    // The local cloud's clock, not real seconds: still hidden 10 s before the timeout (real time between these calls
    // only eats into those 10 s, so a loaded host cannot make it visible early), visible at the timeout.
    sharedClock().advance(50);
    const justBefore = await receive(url);
    sharedClock().advance(10);
    const again = (await receive(url)).Messages?.[0];
    // Assert
    expect(first.Messages).toHaveLength(1);
    expect(whileHidden.Messages ?? []).toHaveLength(0);
    expect(justBefore.Messages ?? []).toHaveLength(0);
    expect(again?.MessageId).toBe(first.Messages?.[0]?.MessageId);
    expect(again?.Attributes?.ApproximateReceiveCount).toBe("2");
  });

  it("moves a message to the DLQ after maxReceiveCount receives (redrive)", async () => {
    // Arrange
    const dlq = await sqs.newQueue();
    const { url } = await sqs.newQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 2 }) });
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "poison" }));
    // Act: a receive with VisibilityTimeout 0 returns the message to the queue at once.
    const counts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { Messages } = await receive(url, { VisibilityTimeout: 0 });
      for (const m of Messages ?? []) counts.push(m.Attributes?.ApproximateReceiveCount ?? "?");
    }
    const moved = await receive(dlq.url);
    // Assert
    expect(counts).toEqual(["1", "2"]);
    expect(moved.Messages?.map((m) => m.Body)).toEqual(["poison"]);
    // AWS keeps the count across the move: 2 + this read (fidelity/redrive.mjs undoes fauxqs counting
    // the receive attempt that triggered the move).
    expect(moved.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe("3");
  });

  it("long polling waits when the queue is empty and wakes up when a message arrives", async () => {
    // Order, not time: a parked poll is still open after the server has answered later requests, and the send
    // answers it before the server answers anything sent after the send. The wait is longer than the test may run,
    // so a poll that only looked again at the end of its wait could not pass.
    const { url } = await sqs.newQueue();
    const other = await sqs.newQueue();
    const roundTrips = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await receive(other.url, { WaitTimeSeconds: 0 });
    };
    let answered = false;
    const polling = receive(url, { WaitTimeSeconds: 20 }).finally(() => (answered = true));
    // Act
    await roundTrips(3);
    const parked = !answered;
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "wake" }));
    await roundTrips(3);
    const wokeBySend = answered;
    const woke = await polling;
    // Assert
    expect(parked).toBe(true);
    expect(wokeBySend).toBe(true);
    expect(woke.Messages?.map((m) => m.Body)).toEqual(["wake"]);
  });

  it("sends and deletes in batches", async () => {
    // Arrange
    const { url } = await sqs.newQueue();
    // Act
    const sent = await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: ["a", "b", "c"].map((body) => ({ Id: `id-${body}`, MessageBody: body })),
      }),
    );
    const { Messages = [] } = await receive(url);
    const deleted = await sqs.client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: Messages.map((m, i) => ({ Id: `d${i}`, ReceiptHandle: m.ReceiptHandle })),
      }),
    );
    const { Attributes } = await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    // Assert
    expect(sent.Successful).toHaveLength(3);
    expect(Messages.map((m) => m.Body).sort()).toEqual(["a", "b", "c"]);
    expect(deleted.Successful).toHaveLength(3);
    expect(deleted.Failed ?? []).toHaveLength(0);
    expect(Attributes).toEqual({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "0" });
  });

  it("ChangeMessageVisibility to 0 makes an in-flight message visible at once", async () => {
    // Arrange
    const { url } = await sqs.newQueue({ VisibilityTimeout: "300" });
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "retry-me" }));
    const first = await receive(url);
    // Act
    await sqs.client.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first.Messages?.[0]?.ReceiptHandle, VisibilityTimeout: 0 }),
    );
    const again = await receive(url);
    // Assert
    expect(again.Messages?.[0]?.Body).toBe("retry-me");
    expect(again.Messages?.[0]?.Attributes?.ApproximateReceiveCount).toBe("2");
  });

  it("keeps message attributes (the SDK also checks their MD5)", async () => {
    // Arrange
    const { url } = await sqs.newQueue();
    // Act
    await sqs.client.send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: "{}",
        MessageAttributes: {
          reason: { DataType: "String", StringValue: "payload-mismatch" },
          attempt: { DataType: "Number", StringValue: "3" },
        },
      }),
    );
    const { Messages } = await receive(url);
    // Assert
    expect(Messages?.[0]?.MessageAttributes).toEqual({
      reason: { DataType: "String", StringValue: "payload-mismatch" },
      attempt: { DataType: "Number", StringValue: "3" },
    });
    expect(Messages?.[0]?.MD5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);
  });

  it("accepts the attributes a Terraform aws_sqs_queue sets", async () => {
    // Arrange
    const dlq = await sqs.newQueue();
    const attributes = createQueueAttributesFromTerraform({
      visibility_timeout_seconds: 180,
      message_retention_seconds: 1_209_600,
      max_message_size: 262_144,
      delay_seconds: 0,
      receive_wait_time_seconds: 20,
      sqs_managed_sse_enabled: true,
      redrive_policy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 5 }),
    });
    // Act
    const { url } = await sqs.newQueue(attributes);
    const { Attributes } = await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["All"] }));
    // Assert
    expect(Attributes).toMatchObject({
      VisibilityTimeout: "180",
      MessageRetentionPeriod: "1209600",
      MaximumMessageSize: "262144",
      DelaySeconds: "0",
      ReceiveMessageWaitTimeSeconds: "20",
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 5 }),
    });
    // Quirk (packages/local-cloud/src/sqs/README.md): SqsManagedSseEnabled is accepted but not reported back.
    expect(Attributes?.SqsManagedSseEnabled).toBeUndefined();
  });
});
