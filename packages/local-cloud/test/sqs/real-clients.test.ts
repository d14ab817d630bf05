import { createHash } from "node:crypto";
import { CreateQueueCommand } from "@aws-sdk/client-sqs";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { createSqsClient, startSqs } from "../../src/sqs";
import type { LocalSqs } from "../../src/sqs";
import { boto3Client, cliClient, findAwsClis } from "./support/real-clients";
import type { RealClient } from "./support/real-clients";

// Clients this project did not write, driven against the local SQS: Debian 12's AWS CLI 2.9 speaks the query
// protocol (form-encoded, XML answers), AWS CLI v1.45 and boto3 the JSON protocol. .ci/run installs the Debian
// CLI (`apt-get install -y awscli`); on a developer machine without it the CLI 2 cases are skipped with a warning.
const clis = findAwsClis();
const cli2 = clis.find((cli) => cli.version.startsWith("aws-cli/2."));
const cli1 = clis.find((cli) => cli.version.startsWith("aws-cli/1."));
const boto3 = boto3Client();
const INSTALL_CLI2 = "apt-get update && apt-get install -y awscli";

if (!cli2) {
  console.warn(`\n*** AWS CLI 2 (query protocol) not found on PATH: its SQS cases are SKIPPED. Install it: ${INSTALL_CLI2}\n`);
}

let sqs: LocalSqs;
let sdk: SQSClient;

beforeAll(async () => {
  sqs = await startSqs();
  sdk = createSqsClient(sqs.endpoint);
});

afterAll(async () => {
  boto3?.close();
  sdk?.destroy();
  await sqs?.stop();
});

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

// The AWS CLI 2 flow starts about a dozen `aws` processes, Python each: 7 s on an idle machine, and past jest's 30 s
// beside the slow tier's terraform plans (one run in ten under load). The time is the client's start-up, not the local
// SQS's answer, so the flow gets room, not a weaker check.
const FLOW_TIMEOUT_MS = 120_000;

describe("Real SQS clients against the local SQS", () => {
  it("has the AWS CLI 2 that .ci/run installs (required under CI=true)", () => {
    if (process.env.CI === "true") expect(cli2?.version ?? `missing: run ${INSTALL_CLI2}`).toMatch(/^aws-cli\/2\./);
    else expect(clis.every((cli) => /^aws-cli\/\d+\./.test(cli.version))).toBe(true);
  });

  // The full flow for AWS CLI 2 (the query protocol, the point of this file) and boto3 (one process); AWS CLI 1 is
  // the same botocore JSON protocol as boto3, so it runs only send and receive (each CLI call is a new process).
  const cases: Array<[string, RealClient | undefined, string]> = [
    ["AWS CLI 2 (query protocol)", cli2 && cliClient(cli2.file, cli2.version), "127.0.0.1"],
    ["boto3 (JSON protocol)", boto3, "localhost"],
  ];

  const cli1Run = cli1 ? it : it.skip;
  cli1Run("AWS CLI 1 (JSON protocol) sends and receives with a queue URL on localhost", async () => {
    const client = cliClient(cli1!.file, cli1!.version);
    const { QueueUrl } = await sdk.send(new CreateQueueCommand({ QueueName: "real-cli1" }));
    const url = `http://localhost:${sqs.port}/000000000000/real-cli1`;
    const body = "cli1 😀";
    const sent = await client.call(sqs.endpoint, "SendMessage", { QueueUrl: url, MessageBody: body, MessageAttributes: { k: { DataType: "String", StringValue: "v" } } });
    const received = await client.call(sqs.endpoint, "ReceiveMessage", { QueueUrl: QueueUrl, MessageAttributeNames: ["All"] });
    expect(sent.MD5OfMessageBody).toBe(md5(body));
    expect((received.Messages as Array<Record<string, unknown>>).map((m) => [m.Body, m.MessageAttributes])).toEqual([
      [body, { k: { DataType: "String", StringValue: "v" } }],
    ]);
  });

  describe.each(cases)("%s", (label, client, host) => {
    const flow = client ? it : it.skip;
    flow(`sends, lists, counts, receives and deletes with queue URLs on ${host}`, async () => {
      // Arrange: a queue made through the SDK; the client addresses it by a URL on another host.
      const name = `real-${label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
      const { QueueUrl } = await sdk.send(new CreateQueueCommand({ QueueName: name }));
      const url = `http://${host}:${sqs.port}/000000000000/${name}`;
      const call = (operation: string, params: Record<string, unknown>) => client!.call(sqs.endpoint, operation, params);
      const body = 'order \u00e9 😀 <&> "q"\r\nend';
      const attributes = {
        tenant: { DataType: "String", StringValue: "t-😀" },
        amount: { DataType: "Number", StringValue: "1250" },
      };

      // Act
      const listed = await call("ListQueues", { QueueNamePrefix: "real-" });
      const sent = await call("SendMessage", { QueueUrl: url, MessageBody: body, MessageAttributes: attributes });
      const batch = await call("SendMessageBatch", {
        QueueUrl: url,
        Entries: [
          { Id: "a", MessageBody: "one" },
          { Id: "b", MessageBody: "two", DelaySeconds: 0 },
        ],
      });
      const before = await call("GetQueueAttributes", { QueueUrl: url, AttributeNames: ["All"] });
      const received = await call("ReceiveMessage", {
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        AttributeNames: ["All"],
        MessageAttributeNames: ["All"],
      });
      const messages = received.Messages as Array<Record<string, any>>;
      const inFlight = await call("GetQueueAttributes", {
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      });
      const deleted = await call("DeleteMessage", { QueueUrl: url, ReceiptHandle: messages[0].ReceiptHandle });
      const after = await call("GetQueueAttributes", {
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      });

      // Assert
      expect(listed.QueueUrls).toContain(QueueUrl);
      expect(sent).toEqual(expect.objectContaining({ MessageId: expect.any(String), MD5OfMessageBody: md5(body) }));
      expect(sent.MD5OfMessageAttributes).toMatch(/^[0-9a-f]{32}$/);
      expect((batch.Successful as Array<{ Id: string }>).map((entry) => entry.Id).sort()).toEqual(["a", "b"]);
      expect(batch.Failed ?? []).toEqual([]);
      expect(before.Attributes).toEqual(
        expect.objectContaining({ ApproximateNumberOfMessages: "3", QueueArn: `arn:aws:sqs:us-east-1:000000000000:${name}` }),
      );
      expect(messages.map((m) => m.Body).sort()).toEqual([body, "one", "two"].sort());
      const first = messages.find((m) => m.MessageId === sent.MessageId)!;
      expect(first.MD5OfBody).toBe(md5(body));
      expect(first.MessageAttributes).toEqual(attributes);
      expect(first.Attributes).toEqual(expect.objectContaining({ ApproximateReceiveCount: "1", SentTimestamp: expect.any(String) }));
      expect(inFlight.Attributes).toEqual({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "3" });
      expect(deleted).toEqual({});
      expect(after.Attributes).toEqual({ ApproximateNumberOfMessages: "0", ApproximateNumberOfMessagesNotVisible: "2" });
    }, FLOW_TIMEOUT_MS);

    flow("gets AWS's error codes in its protocol (InvalidParameterValue, AccessDenied) and ListDeadLetterSourceQueues", async () => {
      // Arrange: a DLQ whose policy denies PurgeQueue to everyone, and one source queue.
      const name = `real-codes-${label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}`;
      const url = `http://${host}:${sqs.port}/000000000000/${name}`;
      const arn = `arn:aws:sqs:us-east-1:000000000000:${name}`;
      const policy = JSON.stringify({ Statement: [{ Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: arn }] });
      await sdk.send(new CreateQueueCommand({ QueueName: name, Attributes: { Policy: policy, MaximumMessageSize: "1024" } }));
      const { QueueUrl: sourceUrl } = await sdk.send(
        new CreateQueueCommand({ QueueName: `${name}-src`, Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount: 5 }) } }),
      );
      const call = (operation: string, params: Record<string, unknown>) => client!.call(sqs.endpoint, operation, params);

      // Act / Assert: the code each client names is AWS's (the query protocol's code; the JSON protocol's header).
      await expect(call("SendMessage", { QueueUrl: url, MessageBody: "a".repeat(1025) })).rejects.toThrow(/\(InvalidParameterValue\).*Message must be shorter than 1024 bytes/);
      await expect(call("PurgeQueue", { QueueUrl: url })).rejects.toThrow(/\(AccessDenied\).*sqs:purgequeue.*explicit deny/);
      const sources = await call("ListDeadLetterSourceQueues", { QueueUrl: url });
      expect(sources.queueUrls).toEqual([sourceUrl]);
    });

    // The query protocol's XML error (both protocols' answers are replayed against AWS's recordings in packages/local-cloud/test/parity).
    const queryOnly = client && label.includes("query") ? it : it.skip;
    queryOnly("gets AWS's error code for a queue that does not exist", async () => {
      await expect(
        client!.call(sqs.endpoint, "GetQueueAttributes", { QueueUrl: `http://${host}:${sqs.port}/000000000000/absent` }),
      ).rejects.toThrow(/\(AWS\.SimpleQueueService\.NonExistentQueue\).*The specified queue does not exist/);
    });
  });
});
