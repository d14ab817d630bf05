import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { idempotencyRecordId } from "@effectively-once/functions";
import { decodeJournalItem, effectKey } from "@effectively-once/contract";
import type { E2eTarget } from "./target";

type Item = Record<string, unknown>;

/** What the downstream holds for one business key: its effect (at most one) and one CALL item per call. */
export interface DownstreamRecord {
  readonly effect?: Item;
  readonly calls: readonly Item[];
}

/** Per-key counts the scenarios assert: charges applied, calls made, and the calls by outcome. */
export interface EffectCounts {
  readonly charges: number;
  readonly calls: number;
  /** applied / replayed / conflict */
  readonly callOutcomes: Record<string, number>;
}


/** Reads the effects table under `pk = <key>#<operation>` (consistent read, all pages). */
export async function readDownstream(target: E2eTarget, businessKey: string): Promise<DownstreamRecord> {
  const items: Item[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await target.clients.documents.send(
      new QueryCommand({
        TableName: target.names.effectsTable,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": effectKey(businessKey, target.names.operation) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return {
    effect: items.find((item) => decodeJournalItem(item)?.kind === "effect"),
    calls: items.filter((item) => decodeJournalItem(item)?.kind === "call"),
  };
}

export function countEffects(record: DownstreamRecord): EffectCounts {
  const callOutcomes: Record<string, number> = {};
  for (const call of record.calls) callOutcomes[String(call.outcome)] = (callOutcomes[String(call.outcome)] ?? 0) + 1;
  return { charges: record.effect ? 1 : 0, calls: record.calls.length, callOutcomes };
}

/** The ledger item of a key (`pk = <key>`, `sk = <operation>`), or undefined. */
export async function readLedger(target: E2eTarget, businessKey: string): Promise<Item | undefined> {
  const { Item } = await target.clients.documents.send(
    new GetCommand({ TableName: target.names.ledgerTable, Key: { pk: businessKey, sk: target.names.operation }, ConsistentRead: true }),
  );
  return Item as Item | undefined;
}

/** The function's Powertools idempotency record for a key, or undefined. */
export async function readIdempotencyRecord(target: E2eTarget, businessKey: string): Promise<Item | undefined> {
  const id = idempotencyRecordId(businessKey, target.names.operation);
  const { Item } = await target.clients.documents.send(new GetCommand({ TableName: target.names.idempotencyTable, Key: { id }, ConsistentRead: true }));
  return Item as Item | undefined;
}
