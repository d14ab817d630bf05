import { createHash } from "node:crypto";

/**
 * The Powertools key is the business key AND the operation, like the ledger's identity (pk + sk):
 * with the business key alone, a later `refund` for an order would be answered with the stored
 * result of its `charge` (or rejected as a payload mismatch) instead of running.
 */
export const EVENT_KEY_JMESPATH = "[businessKey, operation]";

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** JMESPath identifier for a field name; names such as `my-field` or `a.b` must be quoted. */
function identifier(field: string): string {
  return PLAIN_IDENTIFIER.test(field) ? field : JSON.stringify(field);
}

/**
 * `{amount: payload.amount, currency: payload.currency}` for `["amount", "currency"]`: a hash
 * selection, so the stored validation hash names its fields and does not depend on their order.
 * Fields are top-level payload names; a dot is part of the name, not a path.
 */
export function payloadValidationJmesPath(fields: readonly string[]): string {
  if (fields.length === 0) {
    throw new RangeError("payloadValidationJmesPath needs at least one field name");
  }
  const pairs = [...fields].sort().map((field) => `${identifier(field)}: payload.${identifier(field)}`);
  return `{${pairs.join(", ")}}`;
}

/**
 * The `id` Powertools 2.35 stores for an event: `<function name>#<base64 md5 of the JSON key>`.
 * For operators and tests that need to find the second layer's record for a business key.
 */
export function idempotencyRecordId(functionName: string, businessKey: string, operation: string): string {
  const digest = createHash("md5").update(JSON.stringify([businessKey, operation])).digest("base64");
  return `${functionName}#${digest}`;
}
