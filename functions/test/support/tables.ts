import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { type Dynalite, pkSkTable, startDynalite } from "@effectively-once/testing";

/** The Powertools table as the infrastructure creates it: hash key `id` (TTL `expiration` is not emulated). */
export function idempotencyTable(name: string): CreateTableCommandInput {
  return {
    TableName: name,
    AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
    KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    BillingMode: "PAY_PER_REQUEST",
  };
}

/** The downstream stand-in's table: `pk`/`sk` (TTL `expiresAt` is not emulated). */
export function effectsTable(name: string): CreateTableCommandInput {
  return pkSkTable(name);
}

/** A dynalite holding the deposit function's two tables, as the suites that run the handler against real tables start it. */
export async function startDepositDynalite(tables: { readonly idempotency: string; readonly effects: string }): Promise<Dynalite> {
  const db = await startDynalite();
  await db.createTable(idempotencyTable(tables.idempotency));
  await db.createTable(effectsTable(tables.effects));
  return db;
}
