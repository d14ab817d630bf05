/**
 * The example's business identity: one charge per tenant and order. Plain data with no runtime import, so the stack,
 * the function and the message profile share it, and light tools can load the profile without cdktf or the SDK.
 */
import type { FieldRules, PipelineDomain } from "@effectively-once/pipeline";

/** Ledger key `["<tenantId>","<orderId>"]`: the parts as canonical JSON, never joined with a separator. */
const PAYMENTS_BUSINESS_KEY = { expression: "[tenantId, orderId]", requiredFields: ["tenantId", "orderId"] } as const;

const PAYMENTS_OPERATION = "charge";
const PAYMENTS_PAYLOAD_FIELDS = ["amount", "currency"] as const;

/** What a payment message must hold; the state machine and the function both enforce it. */
const PAYMENTS_FIELD_RULES: FieldRules = {
  tenantId: { type: "string", maxLength: 128 },
  orderId: { type: "string", maxLength: 128 },
  amount: { type: "integer", minimum: 1 },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
};

/** The domain as the construct takes it (and `contractEnvironment` hands it to a handler under test). */
export const PAYMENTS_DOMAIN: PipelineDomain = {
  businessKey: PAYMENTS_BUSINESS_KEY,
  operation: PAYMENTS_OPERATION,
  payloadFields: PAYMENTS_PAYLOAD_FIELDS,
  fieldRules: PAYMENTS_FIELD_RULES,
};

/**
 * The stand-in downstream refuses charges in ISO 4217's "no currency" code, as a payments API declines a currency
 * it does not take: a well-formed message the downstream turns down for good (`rejected`).
 */
export const REFUSED_CURRENCY = "XXX";
