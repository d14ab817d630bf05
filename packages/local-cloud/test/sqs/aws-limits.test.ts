import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { loadStackFile, provisionStack } from "../../src/provision";
import { useLocalSqs } from "../support/local-sqs";
import { startDynalite } from "@effectively-once/testing";
import type { Dynalite } from "@effectively-once/testing";

// AWS's SQS limits and counts, as the SendMessage / GetQueueAttributes API references and the SQS Developer Guide
// ("Amazon SQS message attributes", "Amazon SQS dead-letter queues") document them.
const sqs = useLocalSqs("limits");

const counts = async (url: string) =>
  (
    await sqs.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    )
  ).Attributes;

const receive = (url: string, visibilityTimeout?: number) =>
  sqs.client.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      VisibilityTimeout: visibilityTimeout,
      MessageSystemAttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    }),
  );

describe("Counts as AWS reports them", () => {
  it("counts a message received with VisibilityTimeout 0 as visible at once, not in flight", async () => {
    const { url } = await sqs.newQueue();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "m" }));
    await receive(url, 0);
    expect(await counts(url)).toEqual({ ApproximateNumberOfMessages: "1", ApproximateNumberOfMessagesNotVisible: "0" });
  });

  it("keeps the receive count across the redrive: maxReceiveCount 2 → the first DLQ receive says 3", async () => {
    // AWS: the count is kept across queues ("the number of times a message has been received across all queues
    // but not deleted"); the receive attempt that moves the message does not deliver it, so it does not count.
    const dlq = await sqs.newQueue();
    const { url } = await sqs.newQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 2 }) });
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "poison" }));
    for (let i = 0; i < 3; i += 1) await receive(url, 0);
    const moved = await receive(dlq.url);
    expect(moved.Messages?.map((m) => [m.Body, m.Attributes?.ApproximateReceiveCount])).toEqual([["poison", "3"]]);
  });
});

describe("Message size: the queue's MaximumMessageSize, as provisioned from the stack", () => {
  let dynamo: Dynalite;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    // A stack whose queue sets max_message_size as the construct does (262,144 bytes, Terraform's default).
    dir = mkdtempSync(join(tmpdir(), "sqs-limits-"));
    const file = join(dir, "cdk.tf.json");
    writeFileSync(
      file,
      JSON.stringify({
        provider: { aws: [{ region: "us-east-1" }] },
        resource: { aws_sqs_queue: { queue: { name: "sized-queue", max_message_size: 262_144 } } },
      }),
    );
    dynamo = await startDynalite();
    const stack = await provisionStack(loadStackFile(file), { sqs: sqs.client, dynamodb: dynamo.client });
    url = stack.queues[0].url;
  });

  afterAll(async () => {
    await dynamo?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a 300 KB body at send with AWS's error, and accepts exactly 262,144 bytes", async () => {
    const refused = sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x".repeat(300_000) }));
    await expect(refused).rejects.toMatchObject({
      name: "InvalidParameterValue",
      message: "One or more parameters are invalid. Reason: Message must be shorter than 262144 bytes.",
    });
    await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x".repeat(262_144) }))).resolves.toHaveProperty(
      "MessageId",
    );
  });

  it("counts the attributes (name, type and value bytes) into the size", async () => {
    const body = "x".repeat(262_144 - 10);
    const attributes = { tenant: { DataType: "String", StringValue: "t1" } }; // 6 + 6 + 2 = 14 bytes
    await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageAttributes: attributes }))).rejects.toMatchObject(
      { name: "InvalidParameterValue" },
    );
  });
});

describe("Characters: AWS's set, including characters outside the BMP", () => {
  it("accepts emoji in bodies and attribute values (the SDK checks both MD5s)", async () => {
    const { url } = await sqs.newQueue();
    const body = '{"note":"paid 😀 \u{1F680}","zh":"\u4F60\u597D"}';
    const attributes = { mood: { DataType: "String", StringValue: "😀" } };
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageAttributes: attributes }));
    const batch = await sqs.client.send(
      new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "e", MessageBody: "🎉", MessageAttributes: attributes }] }),
    );
    const { Messages } = await receive(url);
    expect(batch.Failed ?? []).toEqual([]);
    expect(Messages?.map((m) => m.Body).sort()).toEqual([body, "🎉"].sort());
    expect(Messages?.[0].MessageAttributes).toEqual(attributes);
  });

  it("refuses a lone surrogate and a control character as AWS does", async () => {
    const { url } = await sqs.newQueue();
    for (const body of ["half \uD83D pair", "bell \u0007"]) {
      await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }))).rejects.toMatchObject({
        name: "InvalidMessageContents",
      });
    }
  });
});

describe("Message attributes: AWS's rules", () => {
  const string = (value: string): MessageAttributeValue => ({ DataType: "String", StringValue: value });
  const refusals: Array<[string, Record<string, MessageAttributeValue>, RegExp]> = [
    ["a name with a space", { "order id": string("1") }, /attribute name 'order id' is invalid/],
    ["a reserved AWS. prefix", { "aws.trace": string("1") }, /'AWS\.' and 'Amazon\.' are reserved/],
    ["a reserved Amazon. prefix", { "Amazon.x": string("1") }, /reserved/],
    ["a leading period", { ".x": string("1") }, /must not start or end with '\.'/],
    ["a trailing period", { "x.": string("1") }, /must not start or end with '\.'/],
    ["two periods in a row", { "a..b": string("1") }, /contain '\.\.'/],
    ["a name over 256 characters", { ["n".repeat(257)]: string("1") }, /too long: at most 256/],
    ["an unknown type", { x: { DataType: "string", StringValue: "1" } }, /supported type prefixes: Binary, Number, String\./],
    ["an empty value", { piyo: string("") }, /^Message \(user\) attribute 'piyo' must contain a non-empty value of type 'String'\.$/],
    ["a Number that is not a number", { n: { DataType: "Number", StringValue: "12abc" } }, /of type Number must be a number/],
    ["a Number over 38 digits", { n: { DataType: "Number", StringValue: "1".repeat(39) } }, /38 significant digits/],
    ["a value with a lone surrogate", { x: string("\uDE00") }, /value contains characters SQS does not accept/],
    [
      "11 attributes",
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`a${i}`, string("v")])),
      /^Number of message attributes \[11\] exceeds the allowed maximum \[10\]\.$/,
    ],
  ];

  it.each(refusals)("refuses %s at SendMessage with InvalidParameterValue", async (_label, attributes, message) => {
    const { url } = await sqs.newQueue();
    const send = sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "b", MessageAttributes: attributes }));
    await expect(send).rejects.toMatchObject({ name: "InvalidParameterValue", message: expect.stringMatching(message) });
  });

  it("accepts custom type labels, letters with accents, 10 attributes and long Numbers within 38 digits", async () => {
    const { url } = await sqs.newQueue();
    const attributes: Record<string, MessageAttributeValue> = {
      "price.eur": { DataType: "Number.eur", StringValue: "-12.50" },
      "Größe_x-1": string("L"),
      big: { DataType: "Number", StringValue: `${"9".repeat(38)}` },
      tiny: { DataType: "Number", StringValue: "1e-128" },
      blob: { DataType: "Binary.gz", BinaryValue: new Uint8Array([1, 2, 3]) },
      ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`a${i}`, string("v")])),
    };
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "b", MessageAttributes: attributes }));
    const { Messages } = await receive(url);
    expect(Object.keys(Messages![0].MessageAttributes!).sort()).toEqual(Object.keys(attributes).sort());
  });

  it("fails only the offending entry of a SendMessageBatch, as AWS does", async () => {
    const { url } = await sqs.newQueue();
    const result = await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: "ok", MessageBody: "fine", MessageAttributes: { a: string("1") } },
          { Id: "bad", MessageBody: "refused", MessageAttributes: { "AWS.x": string("1") } },
        ],
      }),
    );
    expect(result.Successful?.map((e) => e.Id)).toEqual(["ok"]);
    expect(result.Failed).toEqual([
      expect.objectContaining({ Id: "bad", SenderFault: true, Code: "InvalidParameterValue", Message: expect.stringMatching(/reserved/) }),
    ]);
    expect((await receive(url)).Messages?.map((m) => m.Body)).toEqual(["fine"]);
  });
});

describe("Queue URLs on another local host", () => {
  it("finds the queue by a URL on 127.0.0.1 or localhost, and refuses another account", async () => {
    const { url, name } = await sqs.newQueue();
    for (const host of ["127.0.0.1", "localhost"]) {
      await sqs.client.send(new SendMessageCommand({ QueueUrl: `http://${host}:${sqs.port}/000000000000/${name}`, MessageBody: host }));
    }
    expect((await receive(url)).Messages?.map((m) => m.Body).sort()).toEqual(["127.0.0.1", "localhost"]);
    await expect(
      sqs.client.send(new SendMessageCommand({ QueueUrl: `http://127.0.0.1:${sqs.port}/123456789012/${name}`, MessageBody: "x" })),
    ).rejects.toMatchObject({ name: "QueueDoesNotExist" });
  });

  it("deletes a queue named by its 127.0.0.1 URL", async () => {
    const { name } = await sqs.newQueue();
    await sqs.client.send(new DeleteQueueCommand({ QueueUrl: `http://127.0.0.1:${sqs.port}/000000000000/${name}` }));
    const { QueueUrls } = await sqs.client.send(new ListQueuesCommand({ QueueNamePrefix: name }));
    expect(QueueUrls ?? []).toEqual([]);
  });
});
