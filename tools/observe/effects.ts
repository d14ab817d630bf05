import { ScanCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CALL_SK_PREFIX, EFFECT_SK } from "../../src/contract/effects";

/** What the downstream stand-in recorded for one idempotency key (`<businessKey>#<operation>`). */
export interface KeyEffects {
  /** EFFECT items: the effect as applied (at most one, by the downstream's own condition). */
  charges: { messageId: string; appliedAt: string }[];
  /** Every call the downstream saw, in time order. */
  calls: { messageId: string; outcome: string; at: string }[];
}

/** Reads the whole effects table (paginated Scan) into per-key effects. */
export async function readEffects(dynamodb: DynamoDBClient, tableName: string): Promise<Map<string, KeyEffects>> {
  const byKey = new Map<string, KeyEffects>();
  let ExclusiveStartKey: Record<string, any> | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      const pk = item.pk?.S;
      const sk = item.sk?.S;
      if (!pk || !sk) continue;
      const effects = byKey.get(pk) ?? { charges: [], calls: [] };
      byKey.set(pk, effects);
      if (sk === EFFECT_SK) effects.charges.push({ messageId: item.messageId?.S ?? "", appliedAt: item.appliedAt?.S ?? "" });
      else if (sk.startsWith(CALL_SK_PREFIX)) effects.calls.push({ messageId: item.messageId?.S ?? "", outcome: item.outcome?.S ?? "", at: sk.slice(CALL_SK_PREFIX.length) });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  for (const effects of byKey.values()) effects.calls.sort((a, b) => a.at.localeCompare(b.at));
  return byKey;
}
