/**
 * The example's business identity: one charge per tenant and order. Kept apart from the stack (no cdktf import) so
 * light tools, such as the operator CLI deriving keys of retries-exhausted messages, can import it.
 */
export const PAYMENTS_BUSINESS_KEY = { expression: "tenantId & '#' & orderId", requiredFields: ["tenantId", "orderId"] } as const;

export const PAYMENTS_OPERATION = "charge";
export const PAYMENTS_PAYLOAD_FIELDS = ["amount", "currency"] as const;
