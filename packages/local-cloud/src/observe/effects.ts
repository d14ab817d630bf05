import { QueryCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CALL_SK_PREFIX, EFFECT_SK } from "@effectively-once/contract";

/** What the effect journal recorded for one effect key (`<businessKey>#<operation>`, src/contract/effects.ts). */
export interface KeyEffects {
  /** EFFECT items: the effect as applied (at most one, by the journal's own condition). */
  effects: {
    /** The message whose call applied it. */
    messageId: string;
    /** When it was applied (ISO 8601). */
    appliedAt: string;
  }[];
  /** Every call the downstream saw, in time order. */
  calls: {
    /** The message the call was made for. */
    messageId: string;
    /** What the downstream answered: a `CallOutcome`: `applied`, `replayed`, `conflict` or `refused`. */
    outcome: string;
    /** When the call was made (ISO 8601). */
    at: string;
  }[];
}

type Item = Record<string, AttributeValue>;

/** Files one journal item under its key (EFFECT or CALL#…; anything else is ignored). */
function addItem(byKey: Map<string, KeyEffects>, item: Item): void {
  const pk = item.pk?.S;
  const sk = item.sk?.S;
  if (!pk || !sk) return;
  const effects = byKey.get(pk) ?? { effects: [], calls: [] };
  byKey.set(pk, effects);
  if (sk === EFFECT_SK) effects.effects.push({ messageId: item.messageId?.S ?? "", appliedAt: item.appliedAt?.S ?? "" });
  else if (sk.startsWith(CALL_SK_PREFIX)) effects.calls.push({ messageId: item.messageId?.S ?? "", outcome: item.outcome?.S ?? "", at: sk.slice(CALL_SK_PREFIX.length) });
}

/** Reads the whole effects table (paginated Scan) into per-key effects. */
export async function readEffects(dynamodb: DynamoDBClient, tableName: string): Promise<Map<string, KeyEffects>> {
  const byKey = new Map<string, KeyEffects>();
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }));
    for (const item of page.Items ?? []) addItem(byKey, item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  for (const effects of byKey.values()) effects.calls.sort((a, b) => a.at.localeCompare(b.at));
  return byKey;
}

/**
 * One key's effects (a consistent Query on `pk`): what a deployed stack's table can answer without a Scan, which
 * would read every other run's items too. Undefined when the journal holds nothing for the key.
 */
export async function readKeyEffects(dynamodb: DynamoDBClient, tableName: string, effectKey: string): Promise<KeyEffects | undefined> {
  const byKey = new Map<string, KeyEffects>();
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await dynamodb.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": { S: effectKey } }, ConsistentRead: true, ExclusiveStartKey }),
    );
    for (const item of page.Items ?? []) addItem(byKey, item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const effects = byKey.get(effectKey);
  effects?.calls.sort((a, b) => a.at.localeCompare(b.at));
  return effects;
}
