import { ClaimStatus } from "@effectively-once/contract";
import { ScanCommand, type AttributeValue, type DynamoDBClient } from "@aws-sdk/client-dynamodb";

/** The bounded-ledger guarantee (README: guarantees), checked over every item. */
export interface LedgerCheck {
  readonly items: number;
  /** Claims still IN_PROGRESS (a run that settled should leave none but those of crashed, unretried work). */
  readonly inProgress: number;
  /** Keys whose `expiresAt` is missing, not epoch seconds, in the past or beyond the retention. Must be empty. */
  readonly badTtl: readonly string[];
}

/**
 * Scans the ledger: every item must carry `expiresAt` in epoch seconds within `retentionSeconds` from now
 * (a value in milliseconds would be ~1,000 times too far in the future and DynamoDB would never expire it).
 */
export async function checkLedger(dynamodb: DynamoDBClient, tableName: string, options: { retentionSeconds: number; nowMs?: number }): Promise<LedgerCheck> {
  const nowSeconds = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const latest = nowSeconds + options.retentionSeconds + 60;
  let items = 0;
  let inProgress = 0;
  const badTtl: string[] = [];
  let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      items += 1;
      if (item.status?.S === ClaimStatus.InProgress) inProgress += 1;
      const expiresAt = Number(item.expiresAt?.N);
      if (!Number.isInteger(expiresAt) || expiresAt < nowSeconds || expiresAt > latest) badTtl.push(`${item.pk?.S}/${item.sk?.S}`);
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return { items, inProgress, badTtl };
}
