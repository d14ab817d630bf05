import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { createHarness, QUEUE_ARN, until } from "./support/harness";
import type { Harness } from "./support/harness";

let h: Harness;

afterEach(async () => {
  await h.runner.stop();
});

const completed = () => h.eventsOf("batch-completed").length;

describe("Pipe runner: delivery of SQS records to a REQUEST_RESPONSE target", () => {
  it("sends the bare JSON array of records in the shape Pipes delivers, then deletes them", async () => {
    // Arrange
    h = createHarness();
    const first = h.sqs.sendMessage('{"orderId":"o-1"}', {
      kind: { DataType: "String", StringValue: "order" },
      count: { DataType: "Number", StringValue: "3" },
      blob: { DataType: "Binary", BinaryValue: Buffer.from("hi") },
    });
    const second = h.sqs.sendMessage("plain text");
    // Act
    h.runner.start();
    await until(() => completed() === 1, "one batch completed");
    // Assert
    const [input] = h.inputs as SqsRecord[][];
    expect(input.map((r) => r.messageId)).toEqual([first, second]);
    const record = input[0];
    expect(Object.keys(record)).toEqual([
      "messageId",
      "receiptHandle",
      "body",
      "attributes",
      "messageAttributes",
      "md5OfBody",
      "md5OfMessageAttributes",
      "eventSource",
      "eventSourceARN",
      "awsRegion",
    ]);
    expect(Object.keys(input[1])).not.toContain("md5OfMessageAttributes");
    expect(record).toMatchObject({ body: '{"orderId":"o-1"}', eventSource: "aws:sqs", eventSourceARN: QUEUE_ARN, awsRegion: "us-east-1" });
    expect(record.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(record.attributes)).toEqual(["ApproximateReceiveCount", "SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp"]);
    expect(record.attributes.ApproximateReceiveCount).toBe("1");
    expect(record.messageAttributes).toEqual({
      kind: { stringValue: "order", stringListValues: [], binaryListValues: [], dataType: "String" },
      count: { stringValue: "3", stringListValues: [], binaryListValues: [], dataType: "Number" },
      blob: { binaryValue: Buffer.from("hi").toString("base64"), stringListValues: [], binaryListValues: [], dataType: "Binary" },
    });
    expect(h.sqs.remainingIds()).toEqual([]);
    expect(h.eventsOf("records-acknowledged")[0].messageIds).toEqual([first, second]);
    expect(h.runner.stats()).toMatchObject({ batches: 1, messagesReceived: 2, recordsAcknowledged: 2, recordsLeftForRetry: 0 });
  });

  it("polls with long polling and asks SQS for all system and message attributes", async () => {
    h = createHarness({ batchSize: 7 });
    h.sqs.sendMessage("x");
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    const receive = h.sqs.calls.find((c) => c.command === "ReceiveMessageCommand");
    expect(receive?.input).toMatchObject({
      MaxNumberOfMessages: 7,
      WaitTimeSeconds: 20,
      AttributeNames: ["All"],
      MessageAttributeNames: ["All"],
    });
  });

  it("deletes only the acknowledged records of a partial batch failure and redelivers the failed one", async () => {
    // Arrange
    h = createHarness();
    const ids = ["a", "b", "c"].map((b) => h.sqs.sendMessage(b));
    h.respond(async () => ({ status: "SUCCEEDED", output: { batchItemFailures: [{ itemIdentifier: ids[1] }] } }));
    // Act
    h.runner.start();
    await until(() => completed() === 1, "first batch completed");
    // Assert
    expect(h.sqs.remainingIds()).toEqual([ids[1]]);
    expect(h.eventsOf("records-acknowledged")[0].messageIds).toEqual([ids[0], ids[2]]);
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: [ids[1]], reason: "partial-failure" });
    // The queue's visibility timeout (30 s) brings it back; AWS Pipes does not change visibility itself.
    expect(h.sqs.invisibleForMs(ids[1])).toBe(30_000);
    h.respond(async () => ({ status: "SUCCEEDED", output: { batchItemFailures: [] } }));
    await h.clock.advance(30_000);
    await until(() => completed() === 2, "redelivery completed");
    const redelivered = h.inputs[1] as SqsRecord[];
    expect(redelivered.map((r) => r.messageId)).toEqual([ids[1]]);
    expect(redelivered[0].attributes.ApproximateReceiveCount).toBe("2");
    expect(h.sqs.remainingIds()).toEqual([]);
  });

  it.each([
    ["a FAILED execution", { status: "FAILED", error: "States.TaskFailed", cause: "boom" }, "execution-failed"],
    ["a TIMED_OUT execution", { status: "TIMED_OUT", error: "States.Timeout" }, "execution-timed-out"],
    ["an output that is not an object", { status: "SUCCEEDED", output: ["not", "an", "object"] }, "invalid-response"],
    ["an unknown itemIdentifier", { status: "SUCCEEDED", output: { batchItemFailures: [{ itemIdentifier: "nope" }] } }, "invalid-response"],
    ["an empty itemIdentifier", { status: "SUCCEEDED", output: '{"batchItemFailures":[{"itemIdentifier":""}]}' }, "invalid-response"],
    ["output that is not JSON", { status: "SUCCEEDED", output: "{oops" }, "invalid-response"],
  ] as const)("leaves the whole batch on the queue after %s", async (_name, result, reason) => {
    h = createHarness();
    const ids = ["a", "b"].map((b) => h.sqs.sendMessage(b));
    h.respond(async () => ({ ...result }) as never);
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.sqs.remainingIds()).toEqual(ids);
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: ids, reason });
    expect(h.eventsOf("records-acknowledged")).toHaveLength(0);
    expect(h.runner.stats().invalidResponses).toBe(reason === "invalid-response" ? 1 : 0);
  });

  it("deletes filtered-out messages without invoking the target for them", async () => {
    // Arrange
    h = createHarness({ filterCriteria: { Filters: [{ Pattern: '{"body":{"type":["order"]}}' }] } });
    const order = h.sqs.sendMessage('{"type":"order"}');
    const refund = h.sqs.sendMessage('{"type":"refund"}');
    const text = h.sqs.sendMessage("not json");
    // Act
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    // Assert
    expect((h.inputs[0] as SqsRecord[]).map((r) => r.messageId)).toEqual([order]);
    expect(h.eventsOf("records-filtered")[0].messageIds).toEqual([refund, text]);
    expect(h.sqs.remainingIds()).toEqual([]);
    expect(h.runner.stats()).toMatchObject({ recordsFiltered: 2, recordsAcknowledged: 1 });
  });

  it("does not invoke the target when every record is filtered out", async () => {
    h = createHarness({ filterCriteria: { Filters: [{ Pattern: '{"body":{"type":["order"]}}' }] } });
    h.sqs.sendMessage('{"type":"refund"}');
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.inputs).toHaveLength(0);
    expect(h.sqs.remainingIds()).toEqual([]);
  });

  it("applies the input template to each record and still reads batchItemFailures by messageId", async () => {
    // Arrange
    h = createHarness({ inputTemplate: '{"id": <$.messageId>, "order": <$.body.orderId>, "pipe": <aws.pipes.pipe-name>}' });
    const first = h.sqs.sendMessage('{"orderId":"o-1"}');
    const second = h.sqs.sendMessage('{"orderId":"o-2"}');
    h.respond(async () => ({ status: "SUCCEEDED", output: { batchItemFailures: [{ itemIdentifier: second }] } }));
    // Act
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    // Assert
    expect(h.inputs[0]).toEqual([
      { id: first, order: "o-1", pipe: "orders-pipe" },
      { id: second, order: "o-2", pipe: "orders-pipe" },
    ]);
    expect(h.sqs.remainingIds()).toEqual([second]);
  });

  it("fails the whole batch when the input template does not render to JSON", async () => {
    h = createHarness({ inputTemplate: "Order <$.body.orderId>" });
    const id = h.sqs.sendMessage('{"orderId":"o-1"}');
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.inputs).toHaveLength(0);
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: [id], reason: "input-transform-failed" });
  });

  it("reports a failed delete and leaves that message for redelivery", async () => {
    h = createHarness();
    const ids = ["a", "b"].map((b) => h.sqs.sendMessage(b));
    h.sqs.failNextDeleteOf.add(ids[0]);
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.eventsOf("delete-failed")[0].failures).toEqual([{ messageId: ids[0], code: "InternalError", message: "injected failure" }]);
    expect(h.eventsOf("records-acknowledged")[0].messageIds).toEqual([ids[1]]);
    expect(h.sqs.remainingIds()).toEqual([ids[0]]);
    expect(h.runner.stats().deleteFailures).toBe(1);
  });

  it("shortens the wait before a retry only when retryVisibilityTimeoutSeconds is set (local deviation)", async () => {
    h = createHarness({ retryVisibilityTimeoutSeconds: 2 });
    const id = h.sqs.sendMessage("a");
    h.respond(async () => ({ status: "FAILED" }));
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.sqs.invisibleForMs(id)).toBe(2000);
    await h.clock.advance(2000);
    await until(() => completed() === 2, "redelivered after 2 s");
    expect(h.sqs.receiveCount(id)).toBe(2);
  });
});

describe("Pipe runner: FIRE_AND_FORGET", () => {
  it("deletes the batch once the execution is started, without waiting for its result", async () => {
    h = createHarness({ invocationType: "FIRE_AND_FORGET", stopGracePeriodMs: 0 });
    h.respond(() => new Promise(() => undefined)); // never finishes
    h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.inputs).toHaveLength(1);
    expect(h.sqs.remainingIds()).toEqual([]);
    const stopped = h.runner.stop();
    await h.clock.advance(0);
    await stopped;
    expect(h.signals[0].aborted).toBe(true);
  });
});
