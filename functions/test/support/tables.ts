import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { pkSkTable } from "@effectively-once/testing";

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
