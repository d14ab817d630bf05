/**
 * Synth-time rules of the business key: a key field has one JSON type (42 and "42" are never two keys of one
 * identity), and the key expression is a pure function of required body fields (no clock, random, context,
 * variables, or a field the requiredFields do not list). Each refused case was accepted before, and broke a
 * guarantee: a clock in the key makes every redelivery a new key (applied twice); a typo collapses a tenant's
 * orders into one key (the second never applied).
 */
import { type IdempotentPipelineProps } from "../../src/constructs/props";
import { resolveProps } from "../../src/constructs/resolve-props";
import { decodeBody } from "@effectively-once/contract";
import { pipelineFieldRules } from "../../src/constructs/resolve-props";
import { BASE_PROPS, propProblems } from "./support/prop-problems";

const key = (expression: string, requiredFields: readonly string[] = ["tenantId", "orderId"]) => ({ businessKey: { expression, requiredFields } });

describe("Synth-time invariants: the business key", () => {
  it.each<[string, Partial<IdempotentPipelineProps>, RegExp]>([
    ["a clock in the key ($now)", key("[tenantId, orderId, $now()]"), /\$now\(\), which gives another value on every delivery/],
    ["a clock in the key ($millis)", key("[tenantId, orderId, $millis()]"), /\$millis\(\)/],
    ["a key that is only a clock", key("$millis()"), /\$millis\(\)/],
    ["a random part", key("[tenantId, orderId, $random()]"), /\$random\(\)/],
    ["a uuid part", key("[tenantId, orderId, $uuid()]"), /\$uuid\(\)/],
    ["a normalizing function", key("[tenantId, $lowercase(orderId)]"), /\$lowercase\(\); only \$lookup/],
    ["a field the requiredFields do not list (a typo)", key("[tenantId, order_id]"), /reads the field "order_id", which businessKey.requiredFields \("tenantId", "orderId"\) does not list/],
    ["a $lookup of an unlisted field", key("[tenantId, $lookup($, 'order_id')]"), /"order_id"/],
    ["a required field the key never reads", key("[tenantId]"), /never reads "orderId"/],
    ["the execution context", key("[tenantId, orderId, $$.x]"), /not a body field/],
    ["Step Functions' $states", key("[tenantId, orderId, $states.input.messageId]"), /not a body field/],
    ["a variable binding", key("($t := tenantId; [$t, orderId])"), /block/],
    ["a path deeper than one field", key("[tenantId, orderId.id]"), /deeper than one field/],
    ["a filter on a field", key("[tenantId, orderId[0]]"), /not a body field/],
    ["a condition", key("[tenantId, orderId ? orderId : tenantId]"), /condition/],
    ["a nested array", key("[tenantId, [orderId]]"), /nests an array/],
    ["arithmetic on a part", key("[tenantId, orderId + 1]"), /binary \+/],
  ])("refuses %s, naming the expression and the fix", (_case, props, reason) => {
    const found = propProblems(props).find((p) => p.prop === "businessKey.expression");
    expect(found).toBeDefined();
    expect(found!.reason).toMatch(reason);
    expect(found!.fix).toMatch(/requiredFields|\[tenantId, orderId\]/);
  });

  it.each<[string, Partial<IdempotentPipelineProps>]>([
    ["an array of required fields", key("[tenantId, orderId]")],
    ["one field", key("orderId", ["orderId"])],
    ["a namespace literal", key("['v2', tenantId, orderId, 7]")],
    ["backtick and $lookup reads", key("[`order-id`, $lookup($, 'tenant.id')]", ["tenant.id", "order-id"])],
  ])("accepts %s", (_case, props) => {
    expect(propProblems(props)).toEqual([]);
  });

  it("refuses a key field that may be a string or an integer, saying which two keys one identity would become", () => {
    const found = propProblems({ fieldRules: { orderId: { type: "string-or-integer" } } });
    expect(found).toEqual([expect.objectContaining({ prop: "fieldRules.orderId.type", value: "string-or-integer", reason: expect.stringContaining('{"orderId":42} and {"orderId":"42"} would be two keys') })]);
    expect(found[0].fix).toMatch(/use string \(or integer/);
    // A payload field may still take either.
    expect(propProblems({ fieldRules: { amount: { type: "string-or-integer" } } })).toEqual([]);
  });

  it("types key fields without a rule as strings, so an integer spelling of an identity is refused instead of keyed apart", async () => {
    const spec = (p: IdempotentPipelineProps) => {
      const resolved = resolveProps(p);
      return { keyExpression: resolved.businessKey.expression, rules: pipelineFieldRules(resolved), payloadFields: resolved.payloadFields };
    };
    const asText = await decodeBody('{"tenantId":"t1","orderId":"42","amount":1}', spec(BASE_PROPS));
    const asNumber = await decodeBody('{"tenantId":"t1","orderId":42,"amount":1}', spec(BASE_PROPS));
    expect(asText).toEqual({ key: '["t1","42"]', payloadHash: expect.any(String) });
    expect(asNumber).toEqual({ problem: "orderId: expected a non-empty string, got 42" });
  });
});
