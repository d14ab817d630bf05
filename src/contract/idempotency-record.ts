import { createHash } from "node:crypto";

/**
 * The `id` Powertools 2.35 stores for an event: `<function name>#<base64 md5 of the JSON key>`, for operators and
 * tests that need the second layer's record of a business key. The handler wrapper keys Powertools on
 * `[businessKey, operation]`, like the ledger's pk + sk (with the business key alone, a later `refund` of an order
 * would be answered with its `charge`).
 */
export function idempotencyRecordId(functionName: string, businessKey: string, operation: string): string {
  const digest = createHash("md5").update(JSON.stringify([businessKey, operation])).digest("base64");
  return `${functionName}#${digest}`;
}
