import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { decodeJournalItem } from "@effectively-once/contract";

/** Everything an effect journal holds under one effect key. */
export async function readEffects(client: DynamoDBClient, tableName: string, effectKey: string) {
  const { Items = [] } = await DynamoDBDocumentClient.from(client).send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": effectKey },
      ConsistentRead: true,
    }),
  );
  const calls = Items.filter((item) => decodeJournalItem(item)?.kind === "call");
  const effects = Items.filter((item) => decodeJournalItem(item)?.kind === "effect");
  return { calls, effects, applied: calls.filter((item) => item.outcome === "applied") };
}

/** Every record in the Powertools table (tests use one table per file and unique keys). */
export async function readIdempotencyRecords(client: DynamoDBClient, tableName: string) {
  const { Items = [] } = await DynamoDBDocumentClient.from(client).send(
    new ScanCommand({ TableName: tableName, ConsistentRead: true }),
  );
  return Items.map((item) => ({
    id: item.id as string,
    status: item.status as string | undefined,
    /** epoch seconds */
    expiration: item.expiration as number | undefined,
    /** epoch milliseconds */
    inProgressExpiration: item.in_progress_expiration as number | undefined,
    validation: item.validation as string | undefined,
    /** the handler's result, stored as a DynamoDB map */
    data: item.data as unknown,
  }));
}
