import { setTimeout as sleep } from "node:timers/promises";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { LocalDynamoError } from "./errors";

/**
 * Waits until a table is ACTIVE. Needed after CreateTable even with `createTableMs: 0`: dynalite answers
 * CreateTable while the table is still CREATING (it flips on the next timer tick), and an item call that
 * arrives in between gets ResourceNotFoundException, as on AWS before the table is ready.
 */
export async function waitForTableActive(
  client: DynamoDBClient,
  tableName: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === "ACTIVE") return;
    } catch (error) {
      if ((error as Error).name !== "ResourceNotFoundException") throw error;
    }
    if (Date.now() > deadline) {
      throw new LocalDynamoError(`table ${tableName} did not become ACTIVE within ${options.timeoutMs ?? 5_000} ms`);
    }
    await sleep(options.intervalMs ?? 5);
  }
}
