import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { JsonProtocolClient } from "../../src/json-protocol";
import { createPipeRunner, type PipeRunner } from "../../src/pipes";
import { type SqsRecord } from "@effectively-once/contract/pipe-filter";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import { waitFor } from "@effectively-once/testing";

describe("Class: JsonProtocolClient (SQS, as the pipes' client)", () => {
  let sqs: LocalSqs;
  let sdk: SQSClient;
  let lean: JsonProtocolClient;
  let runner: PipeRunner | undefined;
  beforeAll(async () => {
    sqs = await startSqs();
    sdk = createSqsClient(sqs.endpoint);
    lean = new JsonProtocolClient({ endpoint: sqs.endpoint, region: "us-east-1", service: "sqs", targetPrefix: "AmazonSQS", credentials: LOCAL_CREDENTIALS });
  });
  afterAll(async () => {
    await runner?.stop({ gracePeriodMs: 1000 });
    lean.destroy();
    sdk.destroy();
    await sqs.stop();
  });

  it("lets a pipe receive SQS records with their attributes, acknowledge one and leave the failed one on the queue", async () => {
    // Arrange
    const { QueueUrl } = await sdk.send(new CreateQueueCommand({ QueueName: "lean-pipe-src" }));
    const { Attributes } = await sdk.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }));
    const ok = await sdk.send(new SendMessageCommand({ QueueUrl, MessageBody: "ok", MessageAttributes: { kind: { DataType: "String", StringValue: "a" }, raw: { DataType: "Binary", BinaryValue: Buffer.from("hi") } } }));
    const bad = await sdk.send(new SendMessageCommand({ QueueUrl, MessageBody: "bad" }));
    const delivered: SqsRecord[] = [];

    // Act
    runner = createPipeRunner({
      name: "lean-pipe",
      sqs: lean,
      queueUrl: QueueUrl!,
      queueArn: Attributes!.QueueArn!,
      region: "us-east-1",
      batchSize: 10,
      maximumBatchingWindowInSeconds: 0,
      invocationType: "REQUEST_RESPONSE",
      workflowType: "EXPRESS",
      retryVisibilityTimeoutSeconds: 60,
      target: async (input) => {
        delivered.push(...(input as SqsRecord[]));
        return { status: "SUCCEEDED", output: { batchItemFailures: [{ itemIdentifier: bad.MessageId }] } };
      },
    });
    runner.start();
    await waitFor(() => runner!.stats().recordsAcknowledged === 1 && runner!.stats().recordsLeftForRetry === 1, { timeoutMs: 10_000, message: "one acknowledged, one left" });

    // Assert
    const record = delivered.find((r) => r.messageId === ok.MessageId)!;
    expect(record).toMatchObject({ body: "ok", eventSource: "aws:sqs", attributes: { ApproximateReceiveCount: "1" } });
    expect(record.messageAttributes).toEqual({
      kind: { stringValue: "a", stringListValues: [], binaryListValues: [], dataType: "String" },
      raw: { binaryValue: "aGk=", stringListValues: [], binaryListValues: [], dataType: "Binary" },
    });
    const depth = await sdk.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] }));
    expect(Number(depth.Attributes!.ApproximateNumberOfMessages) + Number(depth.Attributes!.ApproximateNumberOfMessagesNotVisible)).toBe(1);
  });

  it("names SQS errors as the SDK does (the x-amzn-query-error code, not the JSON __type)", async () => {
    const { QueueUrl } = await sdk.send(new CreateQueueCommand({ QueueName: "lean-errors", Attributes: { MaximumMessageSize: "1024" } }));
    const tooBig = new SendMessageCommand({ QueueUrl, MessageBody: "a".repeat(1025) });
    const failed = (call: Promise<unknown>) => call.then(() => new Error("succeeded"), (e: Error) => e);
    const [sdkError, leanError] = await Promise.all([failed(sdk.send(tooBig)), failed(lean.send(tooBig))]);
    expect([sdkError.name, leanError.name]).toEqual(["InvalidParameterValue", "InvalidParameterValue"]);
    expect(leanError.message).toBe(sdkError.message);
  });
});
