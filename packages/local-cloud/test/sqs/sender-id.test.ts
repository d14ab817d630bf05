import { CreateQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";

/**
 * SenderId is SQS's, not the producer's: the identity that signed the send (AWS: an IAM user's id, or
 * `<role id>:<session>`). The tools tell the quarantine's own DLQ copies from producers' messages by it, so the
 * local SQS must report it per message, and keep it when the queue's redrive moves a message to its DLQ.
 */
describe("local SQS: SenderId", () => {
  let sqs: LocalSqs;
  let producer: SQSClient;
  let workflow: SQSClient;

  beforeAll(async () => {
    sqs = await startSqs();
    producer = createSqsClient(sqs.endpoint, { credentials: { accessKeyId: "AIDAPRODUCER", secretAccessKey: "x" } });
    workflow = createSqsClient(sqs.endpoint, { credentials: { accessKeyId: "AROAWORKFLOW:run-1", secretAccessKey: "x" } });
  });
  afterAll(async () => {
    producer.destroy();
    workflow.destroy();
    await sqs.stop();
  });

  const queue = async (name: string, attributes?: Record<string, string>) =>
    (await producer.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl!;
  const senders = async (url: string, visibility = 30) => {
    const { Messages = [] } = await producer.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["All"], VisibilityTimeout: visibility }));
    return Messages.map((m) => [m.Body, m.Attributes?.SenderId]);
  };

  it("reports the identity that signed each send, single and batch", async () => {
    const url = await queue("sender-ids");
    await producer.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "p" }));
    await workflow.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "w" }));
    await workflow.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "1", MessageBody: "wb" }] }));
    expect((await senders(url)).sort()).toEqual([["p", "AIDAPRODUCER"], ["w", "AROAWORKFLOW:run-1"], ["wb", "AROAWORKFLOW:run-1"]]);
  });

  it("keeps the producer's SenderId on a message the queue's redrive moved to its DLQ", async () => {
    const dlq = await queue("sender-dlq");
    const dlqArn = "arn:aws:sqs:us-east-1:000000000000:sender-dlq";
    const url = await queue("sender-source", { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 1 }) });
    await producer.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "moved" }));
    expect(await senders(url, 0)).toEqual([["moved", "AIDAPRODUCER"]]);
    expect(await senders(url, 0)).toEqual([]);
    expect(await senders(dlq)).toEqual([["moved", "AIDAPRODUCER"]]);
  });
});
