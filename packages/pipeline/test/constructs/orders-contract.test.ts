import { ContractEnv } from "@effectively-once/contract";
import { ORDERS_KEY, ORDERS_OPERATION, ORDERS_PAYLOAD_FIELDS, PAYMENTS_FIELD_RULES_ENV } from "@effectively-once/testing";
import { resourcesOfType, TEST_APP } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

// The whole-stack tests run the payments example by name and describe its messages with the tests' own contract:
// this reads the example's contract from what it synthesizes, so the two cannot drift apart unnoticed.
describe(`Contract of the ${TEST_APP} example, as synthesized`, () => {
  const stack = synthStack();
  afterAll(() => stack.cleanup());
  const output = (name: string) => stack.json.output[name]?.value;

  it("publishes the key expression, key fields, payload fields and operation the tests assume", () => {
    expect(output("business_key_expression")).toBe(ORDERS_KEY.expression);
    expect(JSON.parse(String(output("business_key_fields")))).toEqual(ORDERS_KEY.requiredFields);
    expect(JSON.parse(String(output("payload_fields")))).toEqual([...ORDERS_PAYLOAD_FIELDS]);
    expect(output("operation")).toBe(ORDERS_OPERATION);
  });

  it("hands its function the field rules the tests assume", () => {
    const [, fn] = resourcesOfType(stack.json, "aws_lambda_function")[0];
    const variables = (fn.environment as { variables: Record<string, string> }).variables;
    expect(variables[ContractEnv.FieldRules]).toBe(PAYMENTS_FIELD_RULES_ENV);
  });
});
