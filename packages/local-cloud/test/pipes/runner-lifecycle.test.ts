import { DrainTimeoutError } from "../../src/pipes/errors";
import type { TargetResult } from "../../src/pipes";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { createHarness, deferred, until } from "./support/harness";
import type { Harness } from "./support/harness";

let h: Harness;

afterEach(async () => {
  const stopped = h.runner.stop({ gracePeriodMs: 0 });
  await h.clock.advance(0);
  await stopped;
});

const completed = () => h.eventsOf("batch-completed").length;
const deliveredIds = (i: number) => (h.inputs[i] as SqsRecord[]).map((r) => r.messageId);

describe("Pipe runner: batching window", () => {
  it("waits for the window, counted from the first message, when the batch is not full", async () => {
    // Arrange
    h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 5 });
    const early = ["a", "b", "c"].map((b) => h.sqs.sendMessage(b));
    // Act
    h.runner.start();
    await until(() => h.sqs.receiveCount(early[0]) === 1 && h.clock.pendingTimers() > 0, "first messages received");
    await h.clock.advance(4000);
    const late = h.sqs.sendMessage("d");
    await until(() => h.sqs.receiveCount(late) === 1, "late message joins the open batch");
    // Assert: nothing sent before the window closes
    expect(h.inputs).toHaveLength(0);
    await h.clock.advance(999);
    expect(h.inputs).toHaveLength(0);
    await h.clock.advance(1);
    await until(() => h.inputs.length === 1, "batch sent when the window closed");
    expect(deliveredIds(0)).toEqual([...early, late]);
  });

  it("sends a full batch at once, without waiting for the window", async () => {
    h = createHarness({ batchSize: 3, maximumBatchingWindowInSeconds: 300 });
    const ids = ["a", "b", "c", "d"].map((b) => h.sqs.sendMessage(b));
    h.runner.start();
    await until(() => h.inputs.length === 1, "full batch sent");
    expect(deliveredIds(0)).toEqual(ids.slice(0, 3));
  });

  it("gathers batches above 10 messages over several receives", async () => {
    h = createHarness({ batchSize: 25, maximumBatchingWindowInSeconds: 10 });
    const ids = Array.from({ length: 25 }, (_, i) => h.sqs.sendMessage(`m${i}`));
    h.runner.start();
    await until(() => h.inputs.length === 1, "batch of 25 sent");
    expect(deliveredIds(0)).toEqual(ids);
    const receives = h.sqs.calls.filter((c) => c.command === "ReceiveMessageCommand").map((c) => c.input.MaxNumberOfMessages);
    expect(receives.slice(0, 3)).toEqual([10, 10, 5]);
  });

  it("with a window of 0 sends what one receive returned", async () => {
    h = createHarness({ batchSize: 100, maximumBatchingWindowInSeconds: 0 });
    Array.from({ length: 12 }, (_, i) => h.sqs.sendMessage(`m${i}`));
    h.runner.start();
    await until(() => h.inputs.length === 2, "two batches sent");
    expect([deliveredIds(0).length, deliveredIds(1).length]).toEqual([10, 2]);
  });
});

describe("Pipe runner: concurrency and stop", () => {
  it("runs up to `concurrency` batches at the same time", async () => {
    // Arrange
    h = createHarness({ batchSize: 1, concurrency: 2 });
    const gate = deferred<TargetResult>();
    h.respond(() => gate.promise);
    ["a", "b", "c"].forEach((b) => h.sqs.sendMessage(b));
    // Act
    h.runner.start();
    await until(() => h.inputs.length === 2, "two executions in flight");
    // Assert
    expect(h.runner.stats().inFlightBatches).toBe(2);
    gate.resolve({ status: "SUCCEEDED" });
    await until(() => completed() === 3, "all three batches done");
    expect(h.runner.stats()).toMatchObject({ batches: 3, recordsAcknowledged: 3, inFlightBatches: 0 });
  });

  it("stop() lets the in-flight batch finish, then polls no more", async () => {
    // Arrange
    h = createHarness();
    const gate = deferred<TargetResult>();
    h.respond(() => gate.promise);
    const first = h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => h.inputs.length === 1, "execution in flight");
    // Act
    const stopped = h.runner.stop();
    gate.resolve({ status: "SUCCEEDED" });
    await stopped;
    const later = h.sqs.sendMessage("b");
    // Assert
    expect(h.runner.stats().state).toBe("stopped");
    expect(h.sqs.remainingIds()).toEqual([later]);
    expect(h.signals[0].aborted).toBe(false);
    expect(h.eventsOf("records-acknowledged")[0].messageIds).toEqual([first]);
  });

  it("stop() aborts an execution that outlives the grace period and leaves its records", async () => {
    h = createHarness();
    h.respond(() => new Promise(() => undefined)); // ignores its signal
    const id = h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => h.inputs.length === 1, "execution in flight");
    const stopped = h.runner.stop({ gracePeriodMs: 1000 });
    await h.clock.advance(999);
    expect(h.signals[0].aborted).toBe(false);
    await h.clock.advance(1);
    await stopped;
    expect(h.signals[0].aborted).toBe(true);
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: [id], reason: "stopped" });
    expect(h.sqs.remainingIds()).toEqual([id]);
  });

  it("aborts an execution that exceeds the pipe's execution limit", async () => {
    h = createHarness({ maximumExecutionMs: 60_000 });
    h.respond((_input, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ status: "FAILED" }))));
    const id = h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => h.inputs.length === 1, "execution in flight");
    await h.clock.advance(60_000);
    await until(() => completed() === 1, "batch completed");
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: [id], reason: "pipe-timeout" });
    expect(h.eventsOf("execution-finished")[0].status).toBe("ABORTED");
  });
});

describe("Pipe runner: errors", () => {
  it("retries a target that throws (a Pipes internal error) with backoff, then acknowledges", async () => {
    // Arrange
    h = createHarness({ targetErrorRetries: 2, targetErrorBackoffMs: 100 });
    let calls = 0;
    h.respond(async () => {
      calls++;
      if (calls < 3) throw new Error("connection reset");
      return { status: "SUCCEEDED" };
    });
    const id = h.sqs.sendMessage("a");
    // Act
    h.runner.start();
    await until(() => calls === 1, "first call");
    await h.clock.advance(100);
    await until(() => calls === 2, "second call after 100 ms");
    await h.clock.advance(199);
    expect(calls).toBe(2);
    await h.clock.advance(1);
    await until(() => completed() === 1, "third call succeeded");
    // Assert
    expect(h.eventsOf("target-error").map((e) => [e.attempt, e.willRetry])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(h.sqs.remainingIds()).not.toContain(id);
    expect(h.runner.stats().executions).toMatchObject({ started: 3, targetErrors: 2, succeeded: 1 });
  });

  it("leaves the batch to the queue when the target keeps throwing", async () => {
    h = createHarness({ targetErrorRetries: 0 });
    h.respond(async () => {
      throw new Error("down");
    });
    const id = h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => completed() === 1, "batch completed");
    expect(h.eventsOf("records-retry")[0]).toMatchObject({ messageIds: [id], reason: "target-error" });
  });

  it("reports a failing ReceiveMessage and polls again after a pause", async () => {
    h = createHarness({ pollErrorBackoffMs: 500 });
    h.sqs.receiveError = Object.assign(new Error("queue gone"), { name: "QueueDoesNotExist" });
    h.runner.start();
    await until(() => h.eventsOf("poll-error").length === 1, "poll error reported");
    expect(h.eventsOf("poll-error")[0].error).toBe("QueueDoesNotExist: queue gone");
    h.sqs.receiveError = undefined;
    const id = h.sqs.sendMessage("a");
    await h.clock.advance(500);
    await until(() => completed() === 1, "polling resumed");
    expect(deliveredIds(0)).toEqual([id]);
    expect(h.runner.stats().pollErrors).toBe(1);
  });
});

describe("Pipe runner: drain", () => {
  it("resolves once the queue is empty and nothing is in flight", async () => {
    h = createHarness();
    ["a", "b"].forEach((b) => h.sqs.sendMessage(b));
    h.runner.start();
    await h.runner.drain();
    expect(h.sqs.remainingIds()).toEqual([]);
  });

  it("rejects with DrainTimeoutError while messages keep coming back", async () => {
    h = createHarness();
    h.respond(async () => ({ status: "FAILED" }));
    h.sqs.sendMessage("a");
    h.runner.start();
    await until(() => completed() === 1, "first failure");
    const drained = h.runner.drain({ timeoutMs: 1000, pollIntervalMs: 100 });
    const outcome = drained.then(
      () => "resolved",
      (error: unknown) => error,
    );
    await h.clock.advance(1000);
    expect(await outcome).toBeInstanceOf(DrainTimeoutError);
  });
});
