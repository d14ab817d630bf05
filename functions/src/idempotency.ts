import { SECOND_LAYER_IDS, secondLayerRecordId, type SecondLayerIds } from "@effectively-once/contract";

/**
 * The Powertools key is the business key AND the operation, like the ledger's identity (pk + sk): with the
 * business key alone, a later `refund` for an order would be answered with the stored result of its `charge` (or
 * rejected as a payload mismatch) instead of running.
 */
export const EVENT_KEY_JMESPATH = "[businessKey, operation]";

/**
 * Powertools validates a replayed key on the payload hash the wrapper adds to the event: the SHA-256 of the
 * canonical payload text (packages/contract/src/canonical.ts), the same rule the state machine uses for the ledger, so the
 * two layers agree on "same payload" for every value (10 = 10.0 = 1e1, any field order, at any depth).
 */
export const PAYLOAD_VALIDATION_JMESPATH = "payloadHash";

/**
 * The `id` Powertools 2.35 stores for an event: `effectively-once.v1#<base64 SHA-256 of ["<businessKey>","<operation>"]>`
 * (packages/contract/src/second-layer-ids.ts), whatever the function is named. For operators and tests that need to find the
 * second layer's record for a business key; `ids` for another form (the earlier releases': `legacySecondLayerIds`).
 */
export function idempotencyRecordId(businessKey: string, operation: string, ids: SecondLayerIds = SECOND_LAYER_IDS): string {
  return secondLayerRecordId(ids, businessKey, operation);
}
