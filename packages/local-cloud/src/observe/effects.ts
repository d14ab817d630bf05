import { QueryCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { decodeJournalItem, type JournalEntry } from "@effectively-once/contract";

/** What the effect journal recorded for one effect key (`<businessKey>#<operation>`, packages/contract/src/effects.ts). */
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

/** Per key, the journal's entries as read (the contract's one decoder of its items). */
type Entries = Map<string, JournalEntry[]>;

/** Files one journal item under its key (EFFECT or CALL#…; anything else is ignored). */
function addItem(byKey: Entries, item: Item): void {
  const entry = decodeJournalItem(unmarshall(item));
  if (entry) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
}

/** A key's effects, calls oldest first (two of one millisecond by their ids, as the journal's sort key orders them). */
function keyEffects(entries: readonly JournalEntry[]): KeyEffects {
  const effects: KeyEffects = { effects: [], calls: [] };
  const calls = entries.flatMap((e) => (e.kind === "call" ? [e] : [])).sort((a, b) => a.at.localeCompare(b.at) || a.callId.localeCompare(b.callId));
  for (const e of entries) if (e.kind === "effect") effects.effects.push({ messageId: e.messageId ?? "", appliedAt: e.appliedAt ?? "" });
  for (const c of calls) effects.calls.push({ messageId: c.messageId ?? "", outcome: c.outcome, at: c.at });
  return effects;
}

/** Reads the whole effects table (paginated Scan) into per-key effects. */
export async function readEffects(dynamodb: DynamoDBClient, tableName: string): Promise<Map<string, KeyEffects>> {
  const byKey: Entries = new Map();
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }));
    for (const item of page.Items ?? []) addItem(byKey, item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return new Map([...byKey].map(([key, entries]) => [key, keyEffects(entries)]));
}

/**
 * One key's effects (a consistent Query on `pk`): what a deployed stack's table can answer without a Scan, which
 * would read every other run's items too. Undefined when the journal holds nothing for the key.
 */
export async function readKeyEffects(dynamodb: DynamoDBClient, tableName: string, effectKey: string): Promise<KeyEffects | undefined> {
  const byKey: Entries = new Map();
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await dynamodb.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": { S: effectKey } }, ConsistentRead: true, ExclusiveStartKey }),
    );
    for (const item of page.Items ?? []) addItem(byKey, item);
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  const entries = byKey.get(effectKey);
  return entries && keyEffects(entries);
}
