import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { splitByPayload } from "../../src/pipes/payload-split";
import { createHarness, until } from "./support/harness";
import type { Harness } from "./support/harness";

// AWS, EventBridge User Guide, "Amazon EventBridge Pipes batching and concurrency": Step Functions targets
// "receive the full batch event payload for processing and are bound by the event total payload size, rather
// than the size of the batch": 262,144 characters. "Amazon SQS as a source": the pipe polls until the batch
// window expires, the invocation payload size quota is reached, or the maximum batch size is reached.
const LIMIT = 262_144;

let h: Harness;

afterEach(async () => {
  await h.runner.stop();
});

const inputChars = (i: number) => JSON.stringify(h.inputs[i]).length;
const deliveredIds = (i: number) => (h.inputs[i] as SqsRecord[]).map((r) => r.messageId);

describe("Pipe runner: the Step Functions payload limit", () => {
  it("never hands the target more than 262,144 characters: a batch of 10 × 60 KB goes out in three executions", async () => {
    // Arrange: 10 messages arrive in one receive; together ~600 KB of JSON.
    h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 0 });
    const ids = Array.from({ length: 10 }, (_, i) => h.sqs.sendMessage(`${i}`.padEnd(60_000, "x")));
    // Act
    h.runner.start();
    await until(() => h.eventsOf("batch-completed").length === 1, "batch completed");
    // Assert
    expect(h.inputs.map((_, i) => inputChars(i) <= LIMIT)).toEqual([true, true, true]);
    expect(h.inputs.map((_, i) => deliveredIds(i).length)).toEqual([4, 4, 2]);
    expect(h.inputs.flatMap((_, i) => deliveredIds(i))).toEqual(ids);
    expect(h.sqs.remainingIds()).toEqual([]);
    expect(h.runner.stats()).toMatchObject({ batches: 1, recordsAcknowledged: 10 });
  });

  it("closes the batching window early once the payload limit is reached", async () => {
    // Arrange: a long window and a batch size that the count alone would not fill.
    h = createHarness({ batchSize: 100, maximumBatchingWindowInSeconds: 300 });
    Array.from({ length: 20 }, (_, i) => h.sqs.sendMessage(`${i}`.padEnd(30_000, "y")));
    // Act: no clock advance, so only the size can end the window.
    h.runner.start();
    await until(() => h.inputs.length >= 1, "a batch sent before the window ends");
    // Assert
    expect(inputChars(0)).toBeLessThanOrEqual(LIMIT);
    expect(deliveredIds(0).length).toBeGreaterThanOrEqual(7);
  });

  it("reports partial failures per execution: only the failed record of the second part is retried", async () => {
    h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 0 });
    const ids = Array.from({ length: 6 }, (_, i) => h.sqs.sendMessage(`${i}`.padEnd(100_000, "z")));
    h.respond(async (input) => {
      const records = input as SqsRecord[];
      const failed = records.filter((r) => r.messageId === ids[3]).map((r) => ({ itemIdentifier: r.messageId }));
      return { status: "SUCCEEDED", output: JSON.stringify({ batchItemFailures: failed }) };
    });
    h.runner.start();
    await until(() => h.eventsOf("batch-completed").length === 1, "batch completed");
    expect(h.inputs.map((_, i) => deliveredIds(i))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4, 6)]);
    expect(h.sqs.remainingIds()).toEqual([ids[3]]);
  });

  it("leaves a record whose input alone is over the limit on the queue without calling the target", async () => {
    h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 0 });
    const small = h.sqs.sendMessage("small");
    const huge = h.sqs.sendMessage("h".repeat(LIMIT));
    h.runner.start();
    await until(() => h.eventsOf("batch-completed").length === 1, "batch completed");
    expect(h.inputs.map((_, i) => deliveredIds(i))).toEqual([[small]]);
    expect(h.sqs.remainingIds()).toEqual([huge]);
    expect(h.eventsOf("records-retry")).toEqual([expect.objectContaining({ messageIds: [huge], reason: "payload-too-large" })]);
    expect(h.eventsOf("execution-finished").find((e) => e.error === "PayloadTooLarge")?.cause).toMatch(/at most 262144/);
  });
});

describe("Function: splitByPayload", () => {
  const record = (id: string) => ({ messageId: id }) as SqsRecord;

  it("fills each part up to exactly the limit, counting brackets and commas", () => {
    // Each item is `"aaaa"` = 6 characters; [a,b] = 2 + 6 + 1 + 6 = 15.
    const items = ["aaaa", "bbbb", "cccc"];
    const parts = splitByPayload(items.map(record), items, 15);
    expect(parts.map((p) => [p.input, p.chars, p.oversized])).toEqual([
      [["aaaa", "bbbb"], 15, false],
      [["cccc"], 8, false],
    ]);
  });

  it("marks a single item over the limit as oversized, alone in its part", () => {
    const parts = splitByPayload([record("a"), record("b")], ["x".repeat(20), "y"], 15);
    expect(parts.map((p) => [p.records.map((r) => r.messageId), p.oversized])).toEqual([
      [["a"], true],
      [["b"], false],
    ]);
  });
});
