/** The sqs:sendMessage integration: request/response mapping (tiny fake client) and error names. */
import { createServer, type AddressInfo } from "node:net";
import { SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";
import { runOnce } from "@effectively-once/testing";

const def = {
  QueryLanguage: "JSONata",
  StartAt: "Send",
  States: {
    Send: {
      Type: "Task",
      Resource: "arn:aws:states:::sqs:sendMessage",
      Arguments: {
        QueueUrl: "http://127.0.0.1:1/000000000000/dlq",
        MessageBody: "{% $states.input.body %}",
        MessageAttributes: { reason: { DataType: "String", StringValue: "payload-mismatch" } },
        DelaySeconds: 0,
      },
      Catch: [{ ErrorEquals: ["States.ALL"], Output: "{% $states.errorOutput %}", Next: "Failed" }],
      End: true,
    },
    Failed: { Type: "Pass", End: true },
  },
};

/** Records the commands it receives and answers like SQS. */
function fakeSqs(fail?: Error) {
  const sent: unknown[] = [];
  const client = {
    async send(command: unknown) {
      if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
      sent.push(command.input);
      if (fail) throw fail;
      return { MessageId: "m-1", MD5OfMessageBody: "abc", MD5OfMessageAttributes: "def", $metadata: { httpStatusCode: 200, requestId: "r-1" } };
    },
  } as unknown as SQSClient;
  return { client, sent };
}

describe("arn:aws:states:::sqs:sendMessage", () => {
  it("sends the parameters (an object body as JSON text) and returns AWS's result shape", async () => {
    const { client, sent } = fakeSqs();
    const run = await runOnce(def, { body: { orderId: 1 } }, { integrations: { sqs: client } });
    expect(sent).toEqual([
      {
        QueueUrl: "http://127.0.0.1:1/000000000000/dlq",
        MessageBody: '{"orderId":1}',
        MessageAttributes: { reason: { DataType: "String", StringValue: "payload-mismatch" } },
        DelaySeconds: 0,
      },
    ]);
    expect(run.output).toEqual({
      MessageId: "m-1",
      MD5OfMessageBody: "abc",
      MD5OfMessageAttributes: "def",
      SdkHttpMetadata: expect.objectContaining({ HttpStatusCode: 200 }),
      SdkResponseMetadata: { RequestId: "r-1" },
    });
  });

  it("names modeled errors SQS.<Exception> and others SQS.AmazonSQSException", async () => {
    const meta = { $metadata: { httpStatusCode: 400, requestId: "r" } };
    const missing = fakeSqs(Object.assign(new Error("The specified queue does not exist."), { name: "QueueDoesNotExist", ...meta }));
    expect((await runOnce(def, { body: "x" }, { integrations: { sqs: missing.client } })).output).toEqual({
      Error: "SQS.QueueDoesNotExistException",
      Cause: "The specified queue does not exist. (Service: AmazonSQS; Status Code: 400; Error Code: QueueDoesNotExist; Request ID: r; Proxy: null)",
    });
    const invalid = fakeSqs(Object.assign(new Error("bad"), { name: "InvalidParameterValue", ...meta }));
    expect((await runOnce(def, { body: "x" }, { integrations: { sqs: invalid.client } })).output).toMatchObject({ Error: "SQS.AmazonSQSException" });
  });

  it("reports SQS.SdkClientException when the endpoint does not answer (real SDK)", async () => {
    // A port that accepts and immediately closes connections.
    const server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sqs = new SQSClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "a", secretAccessKey: "b" }, maxAttempts: 1 });
    try {
      const run = await runOnce(def, { body: "x" }, { integrations: { sqs } });
      expect(run.output).toMatchObject({ Error: "SQS.SdkClientException", Cause: expect.stringMatching(/^Unable to execute HTTP request: /) });
    } finally {
      sqs.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
