import { InvalidPropError } from "../../src/constructs";
import type { PipelineOverrides } from "../../src/app/pipeline-app";
import { NAME_LIMITS } from "../../src/constructs/aws-limits";
import { groupHoldSeconds } from "../../src/constructs/fifo-rules";
import { pipelineResourceNames } from "../../src/constructs/resource-names";
import { worstExecution } from "../../src/constructs/timing";
import { referenceTo, resourceNamed, type SynthesizedStack } from "@effectively-once/testing";
import { buildStack, pipelineOf, synthStack } from "@effectively-once/testing/stack";

function problemsOf(overrides: PipelineOverrides): { prop: string; reason: string; fix: string }[] {
  try {
    buildStack(overrides);
  } catch (error) {
    if (error instanceof InvalidPropError) return error.problems.map((p) => ({ prop: p.prop, reason: p.reason, fix: p.fix }));
    throw error;
  }
  return [];
}

describe("Construct: IdempotentPipeline in FIFO mode", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack({ fifo: true, highThroughputFifo: true });
  });
  afterAll(() => stack.cleanup());

  it("makes both queues FIFO, the DLQ without content-based deduplication, both in high-throughput mode", () => {
    const queue = resourceNamed(stack.json, "aws_sqs_queue", "test-queue.fifo");
    const dlq = resourceNamed(stack.json, "aws_sqs_queue", "test-dlq.fifo");
    for (const q of [queue, dlq]) expect(q).toMatchObject({ fifo_queue: true, deduplication_scope: "messageGroup", fifo_throughput_limit: "perMessageGroupId" });
    expect(queue.content_based_deduplication).toBe(false);
    expect(dlq.content_based_deduplication).toBe(false);
    expect(JSON.parse(queue.redrive_policy as string)).toEqual({ deadLetterTargetArn: referenceTo(stack.json, "aws_sqs_queue", "test-dlq.fifo", "arn"), maxReceiveCount: 5 });
  });

  it("takes FIFO mode's defaults: batches of 2, no batching window, 240 s executions, memory for both retentions", () => {
    const p = pipelineOf(buildStack({ fifo: true })).config;
    expect(p).toMatchObject({ batchSize: 2, maximumBatchingWindowSeconds: 0, executionTimeoutSeconds: 240, visibilityTimeoutSeconds: 1440, maxConcurrency: 2 });
    expect(p.retentionSeconds).toBe(p.messageRetentionSeconds + p.deadLetterRetentionSeconds);
    expect(worstExecution(p)).toMatchObject({ serial: 2, followerWaves: 0 });
    expect(worstExecution(p).seconds).toBeLessThanOrEqual(240);
    expect(resourceNamed(stack.json, "aws_pipes_pipe", "test-pipe")).toMatchObject({
      source_parameters: { sqs_queue_parameters: { batch_size: 2, maximum_batching_window_in_seconds: 0 } },
    });
  });

  it("renders the FIFO state machine: groups of the batch, a loop per group, quarantines with group and deduplication id", () => {
    const definition = JSON.parse(resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").definition as string);
    const states = definition.States.ProcessBatch.ItemProcessor.States;
    expect(definition.States.ProcessBatch.Items).toBe("{% $groups %}");
    expect(definition.States.ProcessBatch.ItemProcessor.StartAt).toBe("StartGroup");
    expect(Object.keys(states)).toEqual(expect.arrayContaining(["NextRecord", "Settle", "GroupNext", "HoldRest", "LastReceive"]));
    expect(states.Quarantine.Arguments).toMatchObject({ MessageGroupId: "{% $group %}", MessageDeduplicationId: expect.stringContaining("$hash($states.context.Execution.Id") });
    expect(states.LastReceive.Choices[0].Condition).toBe("{% $receiveCount >= 5 %}");
  });

  it("says in the synth's output how long one failing message can hold its group", () => {
    const built = buildStack({ fifo: true });
    const infos = pipelineOf(built).node.metadata.filter((m) => m.type === "@cdktf/info").map((m) => String(m.data));
    expect(infos.some((text) => text.includes("1440 × 5 = 7200 s (2 h)"))).toBe(true);
    expect(groupHoldSeconds(pipelineOf(built).config)).toBe(7200);
  });

  it("keeps standard mode's queues standard", () => {
    const standard = synthStack();
    try {
      const queue = resourceNamed(standard.json, "aws_sqs_queue", "test-queue");
      expect(queue.fifo_queue).toBeUndefined();
      expect(queue.content_based_deduplication).toBeUndefined();
    } finally {
      standard.cleanup();
    }
  });
});

describe("Synth-time rules of FIFO mode", () => {
  it("refuses FIRE_AND_FORGET, naming why FIFO order needs a synchronous target", () => {
    const [problem] = problemsOf({ fifo: true, invocationType: "FIRE_AND_FORGET" });
    expect(problem).toMatchObject({ prop: "invocationType", fix: "use REQUEST_RESPONSE" });
    expect(problem.reason).toMatch(/FIFO order needs a synchronous target/);
  });

  it("refuses a batching window, citing Lambda's SQS poller", () => {
    const [problem] = problemsOf({ fifo: true, maximumBatchingWindowSeconds: 1 });
    expect(problem).toMatchObject({ prop: "maximumBatchingWindowSeconds" });
    expect(problem.reason).toMatch(/Batching window is not supported for FIFO queues/);
  });

  it("refuses a batch whose records, one group one after another, could outrun the execution timeout", () => {
    const problems = problemsOf({ fifo: true, batchSize: 10 });
    const timing = problems.find((p) => p.prop === "executionTimeoutSeconds");
    expect(timing?.reason).toMatch(/^is below the worst case of a batch whose records all share one message group \(10 records of one message group one after another × \(/);
    expect(timing?.reason).toMatch(/\+ fate metrics 2 = 1152 s\)/);
    expect(timing?.fix).toMatch(/or lower batchSize,/);
    // The same batch in standard mode runs its records at once: accepted.
    expect(problemsOf({ batchSize: 10 })).toEqual([]);
  });

  it("holds the ledger's memory to both retentions, since a FIFO DLQ restarts a moved copy's retention", () => {
    const [problem] = problemsOf({ fifo: true, retentionSeconds: 14 * 86400 });
    expect(problem).toMatchObject({ prop: "retentionSeconds", fix: "set retentionSeconds >= 1555200, or lower messageRetentionSeconds or deadLetterRetentionSeconds" });
    expect(problem.reason).toMatch(/345600 \+ 1209600 = 1555200\): a FIFO DLQ restarts a moved copy's retention at the move/);
  });

  it("asks of a FIFO DLQ a day, not the source queue's retention plus a day", () => {
    expect(problemsOf({ fifo: true, deadLetterRetentionSeconds: 86400, retentionSeconds: 345600 + 86400 })).toEqual([]);
    expect(problemsOf({ deadLetterRetentionSeconds: 86400 }).map((p) => p.prop)).toContain("deadLetterRetentionSeconds");
    expect(problemsOf({ fifo: true, deadLetterRetentionSeconds: 3600 })[0]).toMatchObject({ prop: "deadLetterRetentionSeconds", fix: "set deadLetterRetentionSeconds >= 86400" });
  });

  it("refuses FIFO-only settings on a standard queue", () => {
    expect(problemsOf({ contentBasedDeduplication: true, highThroughputFifo: true }).map((p) => p.prop)).toEqual(["contentBasedDeduplication", "highThroughputFifo"]);
  });

  it("names the queues <prefix>-queue.fifo and <prefix>-dlq.fifo, which the SQS name rule accepts (at the longest prefix too)", () => {
    const names = pipelineResourceNames({ namePrefix: "p".repeat(40), fifo: true, function: { name: "worker" } });
    expect([names.queue, names.deadLetterQueue]).toEqual([`${"p".repeat(40)}-queue.fifo`, `${"p".repeat(40)}-dlq.fifo`]);
    expect(problemsOf({ fifo: true })).toEqual([]);
    expect([names.queue, "a.fifo.fifo", "a.fifoo"].map((n) => NAME_LIMITS["sqs-queue"].pattern.test(n))).toEqual([true, false, false]);
  });
});
