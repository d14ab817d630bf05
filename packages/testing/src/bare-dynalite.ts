/** A dynalite DynamoDB server on 127.0.0.1 (free port) with a real SDK client. */
import type { AddressInfo, Server } from "node:net";
import type * as DynamoDb from "@aws-sdk/client-dynamodb";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

// Loaded on first use: the light entry's other helpers need neither the SDK nor dynalite.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const sdk = (): typeof DynamoDb => require("@aws-sdk/client-dynamodb") as typeof DynamoDb;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- dynalite ships no types
const dynalite = (opts: { createTableMs: number }): Server => (require("dynalite") as (opts: { createTableMs: number }) => Server)(opts);

export interface LocalDynamo {
  client: DynamoDBClient;
  endpoint: string;
  close(): Promise<void>;
}

export async function startBareDynalite(): Promise<LocalDynamo> {
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new (sdk().DynamoDBClient)({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
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
    new (sdk().CreateTableCommand)({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, ...(withSortKey ? [{ AttributeName: "sk", AttributeType: "S" as const }] : [])],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, ...(withSortKey ? [{ AttributeName: "sk", KeyType: "RANGE" as const }] : [])],
    }),
  );
}
