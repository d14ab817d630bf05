/** Synth-time checks of the contract's props: key expression, field rules, message size, conflict errors. */
import { checkPayload } from "@effectively-once/functions";
import { readPipelineConfig } from "@effectively-once/functions";
import { decodeBody } from "@effectively-once/contract";
import { compileExpression } from "@effectively-once/local-cloud/emulators";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { resourceNamed, resourcesOfType } from "@effectively-once/testing";
import { buildStack, errorOf, synthStack } from "@effectively-once/testing/stack";

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
    ["a message size whose batch of 10 can pass StartSyncExecution's bytes", { maxMessageBytes: 20000 }, "maxMessageBytes", /10 × \(3 × 20,037 \+ 6,540\) \+ 11 = 666,521 bytes of UTF-8, over the 262,144 StartSyncExecution accepts.*lower maxMessageBytes to 6520 or less, or lower batchSize to 3 or less/],
    // Names the state machine's JSONata and the function's objects would resolve through Object.prototype.
    ["a payload field named like an Object.prototype member", { payloadFields: ["amount", "constructor"] }, "payloadFields", /Object\.prototype.*rename the field/],
    ["a key field named __proto__", { businessKey: { expression: "[tenantId, orderId]", requiredFields: ["tenantId", "__proto__"] } }, "businessKey.requiredFields", /"__proto__"/],
    ["a field rule named hasOwnProperty", { fieldRules: { hasOwnProperty: { type: "any" } } }, "fieldRules", /"hasOwnProperty"/],
    ["a field rule written as a __proto__ own key", { fieldRules: JSON.parse('{"__proto__": {"type": "any"}}') }, "fieldRules", /"__proto__"/],
    ["field rules whose object literal sets a prototype", { fieldRules: { __proto__: { amount: { type: "integer" } } } as never }, "fieldRules", /prototype/],
    // Names a quarantine reason (an SQS attribute) or the function's environment could not carry as they are.
    ["a payload field with a control character", { payloadFields: ["amount\u0007"] }, "payloadFields", /control character/],
    ["a payload field with a lone surrogate", { payloadFields: ["amount\ud800"] }, "payloadFields", /lone surrogate/],
    ["a field rule name with a space", { fieldRules: { "due date": { type: "any" } } }, "fieldRules", /without spaces/],
    ["a field rule name Terraform would interpolate", { fieldRules: { "${x}": { type: "any" } } }, "fieldRules", /\$\$\{/],
    ["a Step Functions error as a conflict error", { function: { conflictErrors: ["States.TaskFailed"] } }, "function.conflictErrors", /errorType/],
  ])("rejects %s, naming the prop, the value and the fix", (_case, overrides, prop, fix) => {
    const error = errorOf(() => buildStack(overrides));
    expect(error.prop).toBe(prop);
    expect(error.message).toMatch(/Fix: /);
    expect(error.message).toMatch(fix);
  });

  it("sets both queues' maximum message size explicitly, and the function's field rules", () => {
    const { json } = synthStack();
    expect(resourceNamed(json, "aws_sqs_queue", "test-queue").max_message_size).toBe(6144 + 37);
    expect(resourceNamed(json, "aws_sqs_queue", "test-dlq").max_message_size).toBe(262144);
    const [, fn] = resourcesOfType(json, "aws_lambda_function")[0];
    const variables = (fn.environment as { variables: Record<string, string> }).variables;
    expect(JSON.parse(variables.PIPELINE_FIELD_RULES)).toEqual(expect.arrayContaining([["amount", { type: "integer", minimum: 1 }]]));
  });

  it("carries a payload field holding a comma to the function as one field, so a changed value is a changed payload", () => {
    // Arrange: "amount,currency" is one body field; a comma-joined list would read it back as two.
    const { json, cleanup } = synthStack({ payloadFields: ["amount,currency"] });
    try {
      const [, fn] = resourcesOfType(json, "aws_lambda_function")[0];
      const variables = (fn.environment as { variables: Record<string, string> }).variables;
      const env = { ...variables, IDEMPOTENCY_TABLE_NAME: "idem", AWS_LAMBDA_FUNCTION_NAME: "fn", AWS_REGION: "us-east-1" };

      // Act
      const config = readPipelineConfig(env);
      const hashOf = (value: string) => checkPayload({ tenantId: "t1", orderId: "o1", amount: 5, currency: "EUR", "amount,currency": value }, config);

      // Assert
      expect(config.payloadFields).toEqual(["amount,currency"]);
      expect(hashOf("5 EUR")).not.toBe(hashOf("500 JPY"));
    } finally {
      cleanup();
    }
  });

  it("renders a Decode step that compiles and hashes like the function for a payload field holding an apostrophe", async () => {
    // Arrange: JSONata has no \' escape; the name must be written so the expression still parses.
    const payloadFields = ["amount", "it's"];
    const { json, cleanup } = synthStack({ payloadFields });
    let output: string;
    try {
      const definition = JSON.parse(resourceNamed(json, "aws_sfn_state_machine", "test-workflow").definition as string);
      // One invocation per batch (the default): records are parsed in the claim phase.
      output = definition.States.ClaimBatch.ItemProcessor.States.Parse.Branches[0].States.Decode.Output as string;
    } finally {
      cleanup();
    }
    const body = JSON.stringify({ tenantId: "t1", orderId: "o1", amount: 5, currency: "EUR", "it's": "x" });

    // Act
    const decode = compileExpression(output.slice(2, -2).trim());
    const decoded = (await decode.evaluate(undefined, { states: { input: { body } } })) as { payloadHash: string | null };

    // Assert
    const expected = await decodeBody(body, { keyExpression: "[tenantId, orderId]", rules: [], payloadFields });
    expect(decoded.payloadHash).toBe((expected as { payloadHash: string }).payloadHash);
  });
});
