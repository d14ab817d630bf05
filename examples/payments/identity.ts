/**
 * The example's business identity: one charge per tenant and order. Kept apart from the stack (no cdktf import) so
 * light tools, such as the operator CLI deriving keys of retries-exhausted messages, can import it.
 */
import { businessKeyText } from "../../src/contract/canonical";
import type { FieldRules } from "../../src/contract/field-rules";

/** Ledger key `["<tenantId>","<orderId>"]`: the parts as canonical JSON, never joined with a separator. */
export const PAYMENTS_BUSINESS_KEY = { expression: "[tenantId, orderId]", requiredFields: ["tenantId", "orderId"] } as const;

export const PAYMENTS_OPERATION = "charge";
export const PAYMENTS_PAYLOAD_FIELDS = ["amount", "currency"] as const;

/** What a payment message must hold; the state machine and the function both enforce it. */
export const PAYMENTS_FIELD_RULES: FieldRules = {
  tenantId: { type: "string", maxLength: 128 },
  orderId: { type: "string", maxLength: 128 },
  amount: { type: "integer", minimum: 1 },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
};

/** The ledger key of a payment, as the state machine derives it from the body. */
export function paymentsBusinessKey(tenantId: unknown, orderId: unknown): string {
  return businessKeyText([tenantId, orderId]);
}

/** The downstream's idempotency key (its effects table's `pk`): `<business key>#<operation>`, as the function builds it. */
export function paymentsEffectKey(tenantId: unknown, orderId: unknown, operation: string): string {
  return `${paymentsBusinessKey(tenantId, orderId)}#${operation}`;
}
