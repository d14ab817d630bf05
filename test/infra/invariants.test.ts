import { App } from "cdktf";
import { InvalidPropError } from "../../src/constructs";
import { PaymentsPipelineStack, type PipelineOverrides } from "../../src/stacks/payments-stack";
import { TEST_STACK } from "../helpers/synth";

/** Builds the stack (no synth): the construct checks its props in its constructor. */
function build(overrides: PipelineOverrides): () => void {
  return () => new PaymentsPipelineStack(new App(), TEST_STACK, overrides);
}

function errorOf(fn: () => void): InvalidPropError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidPropError) return error;
    throw error;
  }
  throw new Error("expected an InvalidPropError, nothing was thrown");
}

describe("Synth-time invariants", () => {
  it.each<[string, PipelineOverrides, string, RegExp]>([
    ["a STANDARD workflow", { stateMachineType: "STANDARD" }, "stateMachineType", /use EXPRESS/],
    ["a fire-and-forget pipe", { invocationType: "FIRE_AND_FORGET" }, "invocationType", /use REQUEST_RESPONSE/],
    ["a visibility timeout under 6 × the execution timeout", { executionTimeoutSeconds: 60, visibilityTimeoutSeconds: 359 }, "visibilityTimeoutSeconds", /visibilityTimeoutSeconds >= 360/],
    ["a lease shorter than the function timeout × attempts", { function: { timeoutSeconds: 30 }, lambdaRetries: 2, leaseSeconds: 89 }, "leaseSeconds", /leaseSeconds >= 90/],
    ["a lease longer than the visibility timeout", { leaseSeconds: 361 }, "leaseSeconds", /leaseSeconds <= 360/],
    ["a ledger retention shorter than the queue's", { retentionSeconds: 3600, messageRetentionSeconds: 7200 }, "retentionSeconds", /retentionSeconds >= 7200/],
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

  it("accepts the test-sized configuration the local end-to-end suite uses", () => {
    expect(build({ executionTimeoutSeconds: 5, visibilityTimeoutSeconds: 30, leaseSeconds: 6, function: { timeoutSeconds: 2 }, lambdaRetries: 1, batchSize: 5 })).not.toThrow();
  });

  it("rejects a bad name prefix", () => {
    const error = errorOf(() => new PaymentsPipelineStack(new App(), { ...TEST_STACK, namePrefix: "has space" }));
    expect(error.prop).toBe("namePrefix");
    expect(error.message).toContain('"has space"');
  });
});
