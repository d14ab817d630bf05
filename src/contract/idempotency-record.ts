import { createHash } from "node:crypto";

/**
 * The second layer's identity: the handler wrapper keys Powertools on `[businessKey, operation]`, like the ledger's
 * pk + sk (with the business key alone, a later `refund` of an order would be answered with its `charge`).
 */
export const EVENT_KEY_JMESPATH = "[businessKey, operation]";

/** Powertools validates a replayed key on the canonical payload hash the wrapper adds to the event. */
export const PAYLOAD_VALIDATION_JMESPATH = "payloadHash";

/**
 * The `id` Powertools 2.35 stores for an event: `<function name>#<base64 md5 of the JSON key>`, for operators and
 * tests that need the second layer's record of a business key.
 */
export function idempotencyRecordId(functionName: string, businessKey: string, operation: string): string {
  const digest = createHash("md5").update(JSON.stringify([businessKey, operation])).digest("base64");
  return `${functionName}#${digest}`;
}
