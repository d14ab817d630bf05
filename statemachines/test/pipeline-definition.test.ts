import jsonata from "jsonata";
import aslValidator from "asl-validator";
import { jsonataString } from "@effectively-once/contract";
import { LEDGER_RETRYABLE_ERRORS, renderPipelineDefinition, type PipelineDefinitionParams } from "../src/render";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

const PARAMS: PipelineDefinitionParams = { ...PIPELINE_TEST_PARAMS, permanentErrors: ["ValidationError", "DownstreamConflictError"], conflictErrors: ["IdempotencyValidationError", "DownstreamConflictError"] };

type States = Record<string, Record<string, any>>;

function recordStates(definition: Record<string, any>): States {
  return definition.States.ProcessBatch.ItemProcessor.States;
}

describe("Function: renderPipelineDefinition", () => {
  it("renders a definition asl-validator accepts, JSONata expressions included", () => {
    const result = aslValidator(renderPipelineDefinition(PARAMS) as never);
    expect(result.errors).toEqual([]);
    expect(result.isValid).toBe(true);
  });

  it.each([
    ["one invocation per batch", { batchInvocation: true }],
    ["FIFO", { fifo: { maxReceiveCount: 5 } }],
  ])("renders a %s definition asl-validator accepts: every state name once in the whole machine, nested Maps included", (_mode, mode) => {
    const result = aslValidator(renderPipelineDefinition({ ...PARAMS, ...mode }) as never);
    expect(result.errors).toEqual([]);
    expect(result.isValid).toBe(true);
  });

  it("fails asl-validator when a JSONata expression is broken (the check can fail)", () => {
    const broken = renderPipelineDefinition({ ...PARAMS, keyExpression: "[tenantId, (" });
    expect(aslValidator(broken as never).isValid).toBe(false);
  });

  it("fills whole-value placeholders with their own JSON type", () => {
    const definition = renderPipelineDefinition(PARAMS);
    const states = recordStates(definition);
    expect(definition.TimeoutSeconds).toBe(60);
    expect((definition.States as States).ProcessBatch.MaxConcurrency).toBe(10);
    // A name in both lists is a conflict (payload-mismatch), caught first.
    expect(states.Invoke.Catch[0]).toMatchObject({ ErrorEquals: ["IdempotencyValidationError", "DownstreamConflictError"], Assign: { reason: "payload-mismatch" } });
    expect(states.Invoke.Catch[1]).toMatchObject({ ErrorEquals: ["ValidationError"], Assign: { reason: "rejected" } });
    expect(states.Invoke.Retry[0].MaxAttempts).toBe(2);
    expect(states.Claim.Retry[0]).toMatchObject({ IntervalSeconds: 1, MaxAttempts: 3, BackoffRate: 2, JitterStrategy: "FULL" });
  });

  it("splices the key expression, the fields and the durations into the JSONata text", () => {
    const states = recordStates(renderPipelineDefinition(PARAMS));
    const decode: string = states.Parse.Branches[0].States.Decode.Output;
    expect(decode).toContain("$body.([tenantId, orderId])");
    expect(decode).toContain("$lookup($body, 'currency')");
    expect(decode).toContain("/^[A-Z]{3}$/");
    expect(decode).not.toContain("$string($canon");
    expect(states.Claim.Arguments.Item.leaseExpiresAt.N).toBe("{% $string($now + 60) %}");
    expect(states.Claim.Arguments.Item.sk.S).toBe("charge");
    expect(JSON.stringify(renderPipelineDefinition(PARAMS))).not.toMatch(/\{\{/);
  });

  it("claims with the guard condition and releases and completes only its own claim", () => {
    const states = recordStates(renderPipelineDefinition(PARAMS));
    expect(states.Claim.Arguments.ConditionExpression).toBe(
      "attribute_not_exists(pk) OR expiresAt < :now OR (#status = :inProgress AND leaseExpiresAt < :now)",
    );
    expect(states.Complete.Arguments.ConditionExpression).toBe("claimId = :claimId AND #status = :inProgress");
    expect(states.Release.Arguments.ConditionExpression).toBe("claimId = :claimId");
    expect(states.Claim.Catch[0]).toEqual({ ErrorEquals: ["DynamoDB.ConditionalCheckFailedException"], Next: "Inspect" });
    expect(states.Inspect.Arguments.ConsistentRead).toBe(true);
  });

  it("ends every record path in one of the four outcomes", () => {
    const states = recordStates(renderPipelineDefinition(PARAMS));
    const terminal = Object.entries(states).filter(([, s]) => s.End === true);
    expect(Object.fromEntries(terminal.map(([name, s]) => [name, s.Output.outcome]))).toEqual({
      Follower: "follower",
      Quarantine: "quarantined",
      Processed: "processed",
      Duplicate: "duplicate",
      RetryLater: "retry",
    });
    // Every Task catches everything, so no record can fail the whole execution.
    for (const [, state] of Object.entries(states).filter(([, s]) => s.Type === "Task" || s.Type === "Parallel")) {
      expect(state.Catch.at(-1).ErrorEquals).toEqual(["States.ALL"]);
    }
  });

  it("retries only ledger errors the optimized DynamoDB integration reports (Java SDK v1 class names), and DynamoDB's ThrottlingException by name, with backoff", () => {
    const states = recordStates(renderPipelineDefinition(PARAMS));
    for (const name of ["Claim", "Inspect", "Complete", "Release"]) {
      expect(states[name].Retry[0].ErrorEquals).toEqual([...LEDGER_RETRYABLE_ERRORS]);
      expect(states[name].Retry[0]).toMatchObject({ BackoffRate: PARAMS.ledgerRetry.backoffRate, IntervalSeconds: PARAMS.ledgerRetry.intervalSeconds, JitterStrategy: "FULL" });
    }
    // DynamoDB's API model names ThrottlingException on every item operation (on-demand tables); the integration
    // spells an error `DynamoDB.<exception>`.
    expect(LEDGER_RETRYABLE_ERRORS).toContain("DynamoDB.ThrottlingException");
    expect(LEDGER_RETRYABLE_ERRORS).not.toContain("DynamoDB.InternalServerError");
  });

  it("quotes field names safely for JSONata, which knows JSON's escapes only (no \\')", async () => {
    expect(jsonataString("it's")).toBe("'it\\u0027s'");
    expect(jsonataString("a\\b")).toBe("'a\\\\b'");
    for (const text of ["it's", "a\\b", 'say"hi"', "\\'", "\\u0027"]) expect(await jsonata(jsonataString(text)).evaluate({})).toBe(text);
  });
});
