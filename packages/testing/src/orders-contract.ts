/**
 * The tests' contract: orders keyed by `[tenantId, orderId]`, payload `amount` + `currency`. The tests that run a
 * whole stack run the payments example, whose identity is this one; `packages/pipeline/test/constructs/orders-contract.test.ts` fails
 * when the two drift apart, so the tests never import the example's code.
 */
import { businessKeyText } from "@effectively-once/contract";
import { effectiveRules, type FieldRules } from "@effectively-once/contract";
import { encodeFieldRules } from "@effectively-once/contract";

export const ORDERS_KEY = { expression: "[tenantId, orderId]", requiredFields: ["tenantId", "orderId"] } as const;
export const ORDERS_OPERATION = "charge";
export const ORDERS_PAYLOAD_FIELDS = ["amount", "currency"] as const;
export const ORDERS_FIELD_RULES: FieldRules = {
  tenantId: { type: "string", maxLength: 128 },
  orderId: { type: "string", maxLength: 128 },
  amount: { type: "integer", minimum: 1 },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
};

export const PAYMENTS_RULES = effectiveRules(ORDERS_KEY.requiredFields, ORDERS_PAYLOAD_FIELDS, ORDERS_FIELD_RULES);

/** The value of PIPELINE_FIELD_RULES for the payments function. */
export const PAYMENTS_FIELD_RULES_ENV = encodeFieldRules(PAYMENTS_RULES);

/** The ledger key of an order, as the state machine derives it. */
export function orderKey(tenantId: unknown, orderId: unknown): string {
  return businessKeyText([tenantId, orderId]);
}
