/** Synth-time checks of the contract's props: key expression, field rules, message size, conflict errors. */
import { InvalidPropError } from "../../src/constructs";
import { MAX_MESSAGE_BYTES } from "../../src/contract/limits";
import type { PipelineOverrides } from "../../src/app/example";
import { buildStack, resourceNamed, resourcesOfType, synthStack } from "../helpers/synth";

function errorOf(overrides: PipelineOverrides): InvalidPropError {
  try {
    buildStack(overrides);
  } catch (error) {
    if (error instanceof InvalidPropError) return error;
    throw error;
  }
  throw new Error("expected an InvalidPropError, nothing was thrown");
}

describe("Synth-time invariants: the contract", () => {
  it.each<[string, PipelineOverrides, string, RegExp]>([
    ["a key joined with &", { businessKey: { expression: "tenantId & '#' & orderId", requiredFields: ["tenantId", "orderId"] } }, "businessKey.expression", /the & operator.*\[tenantId, orderId\]/],
    ["a key joined with $join", { businessKey: { expression: "$join([tenantId, orderId], '|')", requiredFields: ["tenantId", "orderId"] } }, "businessKey.expression", /\$join\(\)/],
    ["a key part turned into text with $string", { businessKey: { expression: "[$string(orderId)]", requiredFields: ["orderId"] } }, "businessKey.expression", /\$string\(\)/],
    ["a key expression that does not parse", { businessKey: { expression: "[tenantId,", requiredFields: ["tenantId"] } }, "businessKey.expression", /not a JSONata expression/],
    ["an unknown field type", { fieldRules: { amount: { type: "decimal" as never } } }, "fieldRules.amount.type", /one of string, integer/],
    ["a pattern with a slash", { fieldRules: { currency: { type: "string", pattern: "^a/b$" } } }, "fieldRules.currency.pattern", /\\x2F/],
    ["a pattern that is no regular expression", { fieldRules: { currency: { type: "string", pattern: "([" } } }, "fieldRules.currency.pattern", /regular expression/],
    ["a key field typed boolean", { fieldRules: { tenantId: { type: "boolean" } } }, "fieldRules.tenantId.type", /key part type/],
    ["a message size one pipe batch cannot hold", { maxMessageBytes: MAX_MESSAGE_BYTES + 1 }, "maxMessageBytes", /262,144 characters a pipe hands Step Functions/],
    ["a Step Functions error as a conflict error", { function: { conflictErrors: ["States.TaskFailed"] } }, "function.conflictErrors", /errorType/],
  ])("rejects %s, naming the prop, the value and the fix", (_case, overrides, prop, fix) => {
    const error = errorOf(overrides);
    expect(error.prop).toBe(prop);
    expect(error.message).toMatch(/Fix: /);
    expect(error.message).toMatch(fix);
  });

  it("sets both queues' maximum message size explicitly, and the function's field rules", () => {
    const { json } = synthStack();
    expect(resourceNamed(json, "aws_sqs_queue", "test-queue").max_message_size).toBe(122880);
    expect(resourceNamed(json, "aws_sqs_queue", "test-dlq").max_message_size).toBe(262144);
    const [, fn] = resourcesOfType(json, "aws_lambda_function")[0];
    const variables = (fn.environment as { variables: Record<string, string> }).variables;
    expect(JSON.parse(variables.PIPELINE_FIELD_RULES)).toEqual(expect.arrayContaining([["amount", { type: "integer", minimum: 1 }]]));
  });
});
