/** A dynalite DynamoDB server on 127.0.0.1 (free port) with a real SDK client. */
import type { AddressInfo, Server } from "node:net";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- dynalite ships no types
const dynalite = require("dynalite") as (opts: { createTableMs: number }) => Server;

export interface LocalDynamo {
  client: DynamoDBClient;
  endpoint: string;
  close(): Promise<void>;
}

export async function startBareDynalite(): Promise<LocalDynamo> {
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  return {
    client,
    endpoint,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A pk/sk table like the pipeline's ledger. */
export async function createTable(client: DynamoDBClient, name: string, withSortKey = true): Promise<void> {
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, ...(withSortKey ? [{ AttributeName: "sk", AttributeType: "S" as const }] : [])],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, ...(withSortKey ? [{ AttributeName: "sk", KeyType: "RANGE" as const }] : [])],
    }),
  );
}
