/**
 * StartSyncExecution counts its input in UTF-8 bytes (262,144, botocore's states model), the pipe cuts a batch in
 * characters: ten messages of 15,000 Cyrillic characters are one batch of ~150,000 characters and ~300,000 bytes.
 * The local StartSyncExecution refuses it as AWS does (ValidationException, a 4xx, before any execution), and the
 * pipe treats the batch as failed without retrying the call itself: the messages come back after their visibility
 * timeout, a receive spent each (AWS: "Amazon EventBridge Pipes error handling and troubleshooting").
 */
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { workflowTarget } from "../../src/cloud/workflow-target";
import { assertSyncExecutionInput } from "../../src/cloud/sync-execution-input";
import type { StateMachine } from "../../src/stepfunctions";
import { createHarness, until, type Harness } from "./support/harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.runner.stop();
  h = undefined;
});

/** A state machine stand-in that only counts its executions: the input check happens before it is reached. */
function countingMachine(): { machine: StateMachine; runs: () => number } {
  let runs = 0;
  const machine = {
    execute: async () => {
      runs++;
      const now = new Date(0);
      return { executionArn: "arn", name: "n", status: "SUCCEEDED", output: { batchItemFailures: [] }, startDate: now, stopDate: now, history: [] };
    },
  } as unknown as StateMachine;
  return { machine, runs: () => runs };
}

describe("Local StartSyncExecution: input counted in UTF-8 bytes", () => {
  it("refuses more than 262,144 bytes with AWS's ValidationException, and takes exactly 262,144", () => {
    const exactly = (bytes: number) => "ж".repeat((bytes - 2) / 2); // JSON.stringify adds two quotes
    expect(() => assertSyncExecutionInput(exactly(262_144))).not.toThrow();
    expect(() => assertSyncExecutionInput(`${exactly(262_144)}x`)).toThrow(
      expect.objectContaining({ name: "ValidationException", $fault: "client", $metadata: { httpStatusCode: 400 }, message: expect.stringMatching(/Value at 'input' failed to satisfy constraint: Member must have length less than or equal to 262144/) }),
    );
  });

  it("fails a batch within the pipe's characters but over the bytes once, without an execution, and leaves every message for its visibility timeout", async () => {
    // Arrange
    const t = (h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 0 }));
    const { machine, runs } = countingMachine();
    const target = workflowTarget(machine, () => undefined);
    let calls = 0;
    t.respond((input, ctx) => {
      calls++;
      return target(input, ctx);
    });
    const ids = Array.from({ length: 10 }, () => t.sqs.sendMessage("ж".repeat(15_000)));
    // Act
    t.runner.start();
    await until(() => t.eventsOf("batch-completed").length === 1, "batch completed");
    // Assert: one batch by characters, refused by bytes, not retried by the pipe, nothing deleted.
    expect(JSON.stringify(t.inputs[0]).length).toBeLessThanOrEqual(262_144);
    expect(Buffer.byteLength(JSON.stringify(t.inputs[0]))).toBeGreaterThan(262_144);
    expect((t.inputs[0] as SqsRecord[]).map((r) => r.messageId)).toEqual(ids);
    expect(calls).toBe(1);
    expect(runs()).toBe(0);
    expect(t.eventsOf("target-error")).toEqual([expect.objectContaining({ willRetry: false, error: expect.stringMatching(/^ValidationException/) })]);
    expect(t.eventsOf("records-retry")).toEqual([expect.objectContaining({ messageIds: ids, reason: "target-error" })]);
    expect(t.sqs.remainingIds()).toEqual(ids);
  });

  it("runs the same batch when it fits the bytes", async () => {
    const t = (h = createHarness({ batchSize: 10, maximumBatchingWindowInSeconds: 0 }));
    const { machine, runs } = countingMachine();
    t.respond(workflowTarget(machine, () => undefined));
    Array.from({ length: 10 }, () => t.sqs.sendMessage("ж".repeat(12_000)));
    t.runner.start();
    await until(() => t.eventsOf("batch-completed").length === 1, "batch completed");
    expect(runs()).toBe(1);
    expect(t.sqs.remainingIds()).toEqual([]);
  });
});
