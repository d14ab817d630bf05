/**
 * The local cloud's shared clock: one offset in a SharedArrayBuffer, read by this thread's Date and by every
 * worker thread that installs it (here fauxqs, whose SentTimestamp and visibility deadlines follow it).
 */
import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { Worker } from "node:worker_threads";
import { sharedClock, OFFSET_DATE_FILE } from "../../src/clock";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";

const DAY_MS = 24 * 3600 * 1000;

describe("Function: sharedClock", () => {
  afterEach(() => sharedClock().advance(-sharedClock().offsetMs() / 1000));

  it("moves Date.now() and new Date() of this thread, not dates built from a value", () => {
    // Arrange
    const clock = sharedClock();
    const before = Date.now();
    // Act
    clock.advance(10 * 24 * 3600);
    const offset = clock.offsetMs();
    const moved = Date.now();
    const movedDate = new Date().getTime();
    clock.advance(-10 * 24 * 3600);
    const after = Date.now();
    // Assert: readings bracketed by unmoved ones, so the shift is exact with no allowance for the host's speed.
    expect(offset).toBe(10 * DAY_MS);
    for (const reading of [moved, movedDate]) {
      expect(reading - 10 * DAY_MS).toBeGreaterThanOrEqual(before);
      expect(reading - 10 * DAY_MS).toBeLessThanOrEqual(after);
    }
    expect(new Date(0).getTime()).toBe(0);
    expect(new Date() instanceof Date).toBe(true);
    expect(typeof Date()).toBe("string");
    expect(Date.UTC(2026, 0, 1)).toBe(1767225600000);
  });

  it("is read by a worker thread that installs the same buffer", async () => {
    const clock = sharedClock();
    clock.advance(3600);
    const before = Date.now();
    const worker = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       require(workerData.file).installOffsetDate(workerData.buffer);
       parentPort.postMessage(Date.now());`,
      { eval: true, workerData: { file: OFFSET_DATE_FILE, buffer: clock.buffer } },
    );
    const seen = await new Promise<number>((resolve, reject) => worker.once("message", resolve).once("error", reject));
    const after = Date.now();
    await worker.terminate();
    // The worker read the shifted time between two shifted readings of this thread's (an unshifted one is an hour early).
    expect(seen).toBeGreaterThanOrEqual(before);
    expect(seen).toBeLessThanOrEqual(after);
  });

  it("refuses a second clock on the same thread (one process, one timeline)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS, loaded where the check runs
    expect(() => require("../../src/clock/offset-date.cjs").installOffsetDate(new SharedArrayBuffer(8))).toThrow(/another local cloud's clock/);
  });
});

describe("fauxqs on the shared clock", () => {
  let sqs: LocalSqs;
  beforeAll(async () => {
    sqs = await startSqs();
  });
  afterAll(async () => sqs?.stop());
  afterEach(() => sharedClock().advance(-sharedClock().offsetMs() / 1000));

  it("stamps SentTimestamp with the shifted time, and a jump makes an in-flight message visible again", async () => {
    // Arrange
    const client = createSqsClient(sqs.endpoint);
    const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "clock-test" }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "day 0" }));
    const first = await client.send(new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout: 3600, MessageSystemAttributeNames: ["SentTimestamp"] }));
    // Act
    sharedClock().advance(2 * 3600);
    const again = await client.send(new ReceiveMessageCommand({ QueueUrl, MessageSystemAttributeNames: ["SentTimestamp"] }));
    await client.send(new SendMessageCommand({ QueueUrl, MessageBody: "day 0 + 2 h" }));
    const later = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ["SentTimestamp"] }));
    client.destroy();
    // Assert: the hour-long visibility timeout ran out on the shifted clock, without waiting an hour.
    expect(again.Messages?.map((m) => m.Body)).toEqual(["day 0"]);
    const sent = (body: string) => Number([...(first.Messages ?? []), ...(later.Messages ?? [])].find((m) => m.Body === body)?.Attributes?.SentTimestamp);
    expect(sent("day 0 + 2 h") - sent("day 0")).toBeGreaterThanOrEqual(2 * 3600 * 1000);
  });
});
