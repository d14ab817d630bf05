import type { DynamoRequestInfo, DynamoRequestMatcher } from "@effectively-once/local-cloud/emulators";
import { CALL_SK_PREFIX, EFFECT_SK, effectKey } from "@effectively-once/contract";
import type { SynthesizedNames } from "./local-target";

/** Wire-level matchers for the requests that mark the steps of one key's processing. */

/** The downstream's conditional PutItem of the EFFECT item: the side effect itself. */
export function chargeWrite(names: SynthesizedNames, businessKey: string): DynamoRequestMatcher {
  return { operation: "PutItem", table: names.effectsTable, item: { pk: effectKey(businessKey, names.operation), sk: EFFECT_SK } };
}

/** The downstream's PutItem of a CALL item: the last write of a downstream call. */
export function callWrite(names: SynthesizedNames, businessKey: string): DynamoRequestMatcher {
  const pk = effectKey(businessKey, names.operation);
  return {
    operation: "PutItem",
    table: names.effectsTable,
    where: (request: DynamoRequestInfo) => {
      const item = request.body.Item as Record<string, { S?: string }> | undefined;
      return item?.pk?.S === pk && (item.sk?.S ?? "").startsWith(CALL_SK_PREFIX);
    },
  };
}

/** The state machine's UpdateItem that completes the key's claim in the ledger. */
export function ledgerComplete(names: SynthesizedNames, businessKey: string): DynamoRequestMatcher {
  return { operation: "UpdateItem", table: names.ledgerTable, item: { pk: businessKey } };
}
