/**
 * The emulators' threads outlive a stop: the next start of the same emulator in this process gets the idle thread
 * (its code already loaded) with a fresh server, store and clock, so nothing of the last cloud carries over.
 */
import path from "node:path";
import { CreateQueueCommand, ListQueuesCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { sharedClock } from "../../src/clock";
import { DynamoPlacement, startDynamo } from "../../src/dynamodb";
import { createSqsClient } from "../../src/sqs";
import { startWorkerServer } from "../../src/sqs/worker-server";

const FAUXQS = path.join(__dirname, "../../src/sqs/fauxqs-worker.mjs");
const DAY_MS = 24 * 3600 * 1000;
const startFauxqs = (clockBuffer: SharedArrayBuffer = sharedClock().buffer) => startWorkerServer(FAUXQS, { name: "fauxqs", workerData: { clockBuffer } });

describe("Function: startWorkerServer", () => {
  it("serves the next start on the thread the last one stopped, from an empty store", async () => {
    // Arrange: a queue and a message left behind in the first server.
    const first = await startFauxqs();
    const left = createSqsClient(first.endpoint);
    const { QueueUrl } = await left.send(new CreateQueueCommand({ QueueName: "left-behind" }));
    await left.send(new SendMessageCommand({ QueueUrl, MessageBody: "old" }));
    left.destroy();
    await first.stop();

    // Act
    const second = await startFauxqs();
    const client = createSqsClient(second.endpoint);
    try {
      // Assert
      expect(second.threadId).toBe(first.threadId);
      expect((await client.send(new ListQueuesCommand({}))).QueueUrls ?? []).toEqual([]);
    } finally {
      client.destroy();
      await second.stop();
    }
  });

  it("gives a start while another runs a thread of its own", async () => {
    const [a, b] = [await startFauxqs(), await startFauxqs()];
    try {
      expect(a.threadId).not.toBe(b.threadId);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("moves a reused thread to the clock its next start names", async () => {
    // Arrange: the thread served a cloud on one clock (no offset) and stopped.
    const first = await startFauxqs(new SharedArrayBuffer(8));
    await first.stop();
    const later = new SharedArrayBuffer(8);
    new BigInt64Array(later)[0] = BigInt(3 * DAY_MS);

    // Act
    const second = await startFauxqs(later);
    const client = createSqsClient(second.endpoint);
    try {
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "on-the-later-clock" }));
      const before = Date.now() - sharedClock().offsetMs();
      await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "now" }));
      const after = Date.now() - sharedClock().offsetMs();
      const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ["SentTimestamp"] }));

      // Assert: stamped 3 days ahead of real time, between two real readings.
      expect(second.threadId).toBe(first.threadId);
      const sent = Number(Messages[0]?.Attributes?.SentTimestamp) - 3 * DAY_MS;
      expect(sent).toBeGreaterThanOrEqual(before);
      expect(sent).toBeLessThanOrEqual(after);
    } finally {
      client.destroy();
      await second.stop();
    }
  });
});

describe("Function: startDynamo (worker placement), one start after another", () => {
  it("starts empty and counts only its own requests", async () => {
    // Arrange
    const first = await startDynamo({ placement: DynamoPlacement.Worker });
    const left = new DynamoDBClient({ endpoint: first.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    await left.send(
      new CreateTableCommand({ TableName: "left-behind", BillingMode: "PAY_PER_REQUEST", AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }], KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }] }),
    );
    left.destroy();
    await first.stop();

    // Act
    const second = await startDynamo({ placement: DynamoPlacement.Worker });
    const client = new DynamoDBClient({ endpoint: second.endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    try {
      const { TableNames } = await client.send(new ListTablesCommand({}));

      // Assert
      expect(TableNames).toEqual([]);
      expect(second.requests()).toEqual({ ListTables: 1 });
    } finally {
      client.destroy();
      await second.stop();
    }
  });
});
