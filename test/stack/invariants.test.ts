import type { PipelineOverrides } from "@effectively-once/pipeline";
import { PIPELINE_TEMPLATE as template } from "@effectively-once/statemachines";
import { CLAIM_ATTEMPTS, worstExecution, worstRecordBudget } from "@effectively-once/pipeline/settings";
import { LOAD_WINDOWS } from "@effectively-once/local-cloud/stack";
import { TEST_WINDOWS } from "../e2e/support/test-windows";
import { TEST_STACK } from "@effectively-once/testing";
import { buildStack, errorOf, pipelineOf } from "@effectively-once/testing/stack";

/** The failures suite's windows (test/e2e/failures.test.ts): short timeouts, no service-error retries. */
const FAILURES_WINDOWS: PipelineOverrides = {
  executionTimeoutSeconds: 34,
  visibilityTimeoutSeconds: 204,
  leaseSeconds: 6,
  lambdaRetries: 0,
  ledgerRetry: { intervalSeconds: 1, maxAttempts: 0, backoffRate: 1 },
};

/** Builds the stack (no synth): the construct checks its props in its constructor. */
function build(overrides: PipelineOverrides): () => void {
  return () => buildStack(overrides);
}


describe("Synth-time invariants", () => {
  it.each<[string, PipelineOverrides, string, RegExp]>([
    ["a STANDARD workflow", { stateMachineType: "STANDARD" }, "stateMachineType", /use EXPRESS/],
    ["a fire-and-forget pipe", { invocationType: "FIRE_AND_FORGET" }, "invocationType", /use REQUEST_RESPONSE/],
    ["a visibility timeout under 6 × the execution timeout", { executionTimeoutSeconds: 60, visibilityTimeoutSeconds: 359 }, "visibilityTimeoutSeconds", /visibilityTimeoutSeconds >= 360/],
    ["a lease shorter than the function timeout × attempts (one invocation per record)", { batchInvocation: false, function: { timeoutSeconds: 30 }, lambdaRetries: 2, leaseSeconds: 89 }, "leaseSeconds", /leaseSeconds >= 90/],
    ["a lease shorter than two invocations × the function timeout × attempts (one invocation per batch)", { leaseSeconds: 59 }, "leaseSeconds", /2 × 10 × 3 = 60.*leaseSeconds >= 60/],
    ["a lease that outlives the visibility timeout minus the batching window and a long poll", { leaseSeconds: 1119 }, "leaseSeconds", /1140 − 1 − 20 = 1119.*leaseSeconds < 1119/],
    ["a lease that does so only through the batching window", { leaseSeconds: 1110, maximumBatchingWindowSeconds: 10 }, "leaseSeconds", /1140 − 10 − 20 = 1110/],
    // The pipe may long-poll up to 20 s more after the window: 530 s fits 540 − 1 but not 540 − 1 − 20.
    ["a lease that does so only through the pipe's long poll (530 s against 540 s)", { function: { timeoutSeconds: 5 }, lambdaRetries: 0, executionTimeoutSeconds: 90, visibilityTimeoutSeconds: 540, leaseSeconds: 530 }, "leaseSeconds", /540 − 1 − 20 = 519.*leaseSeconds < 519/],
    ["a ledger retention shorter than the DLQ's, both queues shortened", { retentionSeconds: 5 * 86400, messageRetentionSeconds: 4 * 86400, deadLetterRetentionSeconds: 6 * 86400 }, "retentionSeconds", /retentionSeconds >= 518400/],
    ["a ledger retention shorter than the DLQ's (the old 7-day default)", { retentionSeconds: 604800 }, "retentionSeconds", /deadLetterRetentionSeconds \(1209600\).*retentionSeconds >= 1209600/],
    // A retried message must reach the DLQ before the source queue drops it: the wait before the first receive
    // (up to the age alarm's threshold) plus one visibility timeout per receive.
    ["a source retention a retried message outlives (1,800 s against 1,140 s × 5)", { messageRetentionSeconds: 1800 }, "messageRetentionSeconds", /600 \+ 5 × 1140 \+ 20 = 6320.*messageRetentionSeconds >= 6320/],
    ["a source retention that covers the receives but not the wait before the first", { messageRetentionSeconds: 6000 }, "messageRetentionSeconds", /oldestMessageAgeAlarmSeconds 600 \+ maxReceiveCount × visibilityTimeoutSeconds/],
    ["a DLQ retention shorter than the source queue's (1 d against 4 d)", { deadLetterRetentionSeconds: 86400 }, "deadLetterRetentionSeconds", /345600 \+ 86400 = 432000.*deadLetterRetentionSeconds >= 432000/],
    ["a DLQ retention equal to the source queue's (a copy moved at the end of its life is dropped on arrival)", { deadLetterRetentionSeconds: 345600, retentionSeconds: 345600 }, "deadLetterRetentionSeconds", /deadLetterRetentionSeconds >= 432000/],
    ["a ledger retention shorter than the lease (60 s against 200 s)", { retentionSeconds: 60, messageRetentionSeconds: 60, deadLetterRetentionSeconds: 60, leaseSeconds: 200 }, "retentionSeconds", /leaseSeconds 200.*retentionSeconds >= 200/],
    ["a ledger retention shorter than the execution timeout", { retentionSeconds: 60, messageRetentionSeconds: 60, deadLetterRetentionSeconds: 60, executionTimeoutSeconds: 200, visibilityTimeoutSeconds: 1200, leaseSeconds: 90 }, "retentionSeconds", /= 200 \(executionTimeoutSeconds\).*retentionSeconds >= 200/],
    ["an execution timeout below the worst case of one record (the old 90 s default: no cold start's Init)", { batchInvocation: false, executionTimeoutSeconds: 90 }, "executionTimeoutSeconds", /invoke 3 × \(Init 10 \+ function timeout 10\).* \+ fate metrics 2 = 117 s\).*executionTimeoutSeconds >= 117/],
    ["an execution timeout below the worst batch invoked once (the per-record default, 120 s)", { executionTimeoutSeconds: 120 }, "executionTimeoutSeconds", /claim phase 1 × .* = 45 \+ batch invoke 63 \+ settle .* = 73 .*fate metrics 2 = 183 s\).*executionTimeoutSeconds >= 183.*batchInvocation: false \(one invocation per record: 117 s\)/],
    ["a Map that needs two waves for one batch (one invocation per record)", { batchInvocation: false, maxConcurrency: 5 }, "executionTimeoutSeconds", /2 waves × .*executionTimeoutSeconds >= 232/],
    ["a Map that needs two waves for one batch invoked once: over EXPRESS's 300 s", { maxConcurrency: 5 }, "executionTimeoutSeconds", /claim phase 2 × .* = 301 s\).*batchInvocation: false \(one invocation per record: 232 s\)/],
    ["a function timeout as long as the execution timeout", { executionTimeoutSeconds: 40, visibilityTimeoutSeconds: 240, leaseSeconds: 80, function: { timeoutSeconds: 40 }, lambdaRetries: 0 }, "function.timeoutSeconds", /function.timeoutSeconds < 40/],
    ["a batch larger than 10", { batchSize: 11 }, "batchSize", /1-10/],
    ["an empty batch", { batchSize: 0 }, "batchSize", /1-10/],
    ["a batching window beyond Pipes' limit", { maximumBatchingWindowSeconds: 301 }, "maximumBatchingWindowSeconds", /0-300/],
    ["an execution timeout beyond EXPRESS's 5 minutes", { executionTimeoutSeconds: 301, visibilityTimeoutSeconds: 1806 }, "executionTimeoutSeconds", /300 seconds/],
    ["fewer than 5 receives before the DLQ", { maxReceiveCount: 3 }, "maxReceiveCount", /at least 5/],
    ["an empty key expression", { businessKey: { expression: " ", requiredFields: ["a"] } }, "businessKey.expression", /JSONata expression/],
    ["a key expression Terraform would interpolate", { businessKey: { expression: "'${x}'", requiredFields: ["a"] } }, "businessKey.expression", /\$\$\{/],
    ["no payload fields", { payloadFields: [] }, "payloadFields", /amount/],
    ["a Step Functions error as a permanent function error", { function: { permanentErrors: ["States.ALL"] } }, "function.permanentErrors", /errorType/],
  ])("rejects %s, naming the prop, the value and the fix", (_case, overrides, prop, fix) => {
    const error = errorOf(build(overrides));
    expect(error.prop).toBe(prop);
    expect(error.message).toContain(`${prop} = `);
    expect(error.message).toMatch(/Fix: /);
    expect(error.message).toMatch(fix);
  });

  it("accepts the default stack and the test-sized configurations the local end-to-end suites use", () => {
    expect(build({})).not.toThrow();
    expect(build(TEST_WINDOWS)).not.toThrow();
    expect(build({ ...FAILURES_WINDOWS, function: { timeoutSeconds: 3 } })).not.toThrow();
    expect(build(LOAD_WINDOWS)).not.toThrow();
  });

  it("accepts queue retentions exactly at their bounds", () => {
    // 600 s of waiting + 5 receives × 1,140 s + one long poll; the DLQ one day longer than the source queue.
    expect(build({ messageRetentionSeconds: 6320, deadLetterRetentionSeconds: 6320 + 86400, retentionSeconds: 6320 + 86400 })).not.toThrow();
    expect(errorOf(build({ messageRetentionSeconds: 6319, deadLetterRetentionSeconds: 6319 + 86400, retentionSeconds: 6319 + 86400 })).prop).toBe("messageRetentionSeconds");
  });

  it("adds up the worst case of one record from the definition's Retry blocks", () => {
    // Arrange: the defaults (ledger retry 1 s × 3 attempts × 2, two Lambda retries, 10 s function timeout).
    const props = pipelineOf(buildStack()).config;
    // Act
    const budget = worstRecordBudget(props);
    // Assert: 3 × (7 + 7) + (3 × (10 Init + 10) + 1 + 2) + max(7, 7 + (1 + 2)) = 115.
    expect(budget.claim).toEqual({ attempts: 4, backoffSeconds: 7, seconds: 7 });
    expect(budget.invoke).toEqual({ attempts: 3, backoffSeconds: 3, seconds: 63 });
    expect(budget.quarantine).toEqual({ attempts: 3, backoffSeconds: 3, seconds: 3 });
    expect(budget.seconds).toBe(115);
    // One invocation per batch (the default): claim phase 3 × (7 + 7) + 3, the batch's invocation, each record perhaps
    // invoked alone and then released and quarantined, and the fate metrics call (its TimeoutSeconds, no Retry).
    expect(worstExecution(props)).toMatchObject({ seconds: 45 + 63 + 73 + 2, batch: { claimPhase: 45, invoke: 63, settle: 73 } });
    expect(props.executionTimeoutSeconds).toBeGreaterThanOrEqual(worstExecution(props).seconds);
    // One invocation per record: the record's 115 + the fate metrics call's 2.
    const perRecord = pipelineOf(buildStack({ batchInvocation: false })).config;
    expect(worstExecution(perRecord).seconds).toBe(117);
    expect(perRecord.executionTimeoutSeconds).toBeGreaterThanOrEqual(worstExecution(perRecord).seconds);
  });

  it("counts as many claim attempts as the definition allows", () => {
    const decide = JSON.stringify((template as { States: { ProcessBatch: { ItemProcessor: { States: Record<string, unknown> } } } }).States.ProcessBatch.ItemProcessor.States.Decide);
    expect(decide).toContain(`$claimAttempts < ${CLAIM_ATTEMPTS}`);
  });

  it("rejects a bad name prefix", () => {
    const error = errorOf(() => buildStack({}, { ...TEST_STACK, namePrefix: "has space" }));
    expect(error.prop).toBe("namePrefix");
    expect(error.message).toContain('"has space"');
  });
});
