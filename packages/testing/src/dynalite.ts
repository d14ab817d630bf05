import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type * as DynamoDb from "@aws-sdk/client-dynamodb";
import type { CreateTableCommandInput, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type * as Emulators from "@effectively-once/local-cloud/emulators";

/** dynalite ships no types; this is the part of its API the helper uses. */
type DynaliteFactory = (options: { createTableMs?: number; deleteTableMs?: number }) => Server;
// The SDK, dynalite and the local cloud's fixes load when a server starts: the light entry's other helpers need none.
/* eslint-disable @typescript-eslint/no-require-imports -- see above; dynalite is an untyped CommonJS package */
const sdk = (): typeof DynamoDb => require("@aws-sdk/client-dynamodb") as typeof DynamoDb;
const emulators = (): typeof Emulators => require("@effectively-once/local-cloud/emulators") as typeof Emulators;
const createDynalite = (): DynaliteFactory => require("dynalite") as DynaliteFactory;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface Dynalite {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  /** A client for this server: region us-east-1, fake credentials. */
  readonly client: DynamoDBClient;
  /** Creates a table and resolves once it is ACTIVE. */
  createTable(definition: CreateTableCommandInput): Promise<void>;
  /** Destroys the client, drops open connections and closes the server. */
  stop(): Promise<void>;
}

const TABLE_ACTIVE_DEADLINE_MS = 5_000;

/** Starts an in-memory DynamoDB wire emulator (dynalite with the local cloud's fixes) in this process on 127.0.0.1, on a free port. */
export async function startDynalite(): Promise<Dynalite> {
  const { CreateTableCommand, DescribeTableCommand, DynamoDBClient } = sdk();
  const fidelity = emulators().installDynaliteFidelity(require);
  const server = createDynalite()({ createTableMs: 0, deleteTableMs: 0 });
  fidelity.attach(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  });

  async function createTable(definition: CreateTableCommandInput): Promise<void> {
    await client.send(new CreateTableCommand(definition));
    // dynalite flips CREATING to ACTIVE on a zero-delay timer: poll briefly, under a deadline.
    const deadline = Date.now() + TABLE_ACTIVE_DEADLINE_MS;
    for (;;) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: definition.TableName }));
      if (Table?.TableStatus === "ACTIVE") return;
      if (Date.now() > deadline) {
        throw new Error(`table ${definition.TableName} not ACTIVE after ${TABLE_ACTIVE_DEADLINE_MS} ms`);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function stop(): Promise<void> {
    client.destroy();
    // Keep-alive sockets from other clients would otherwise hold close() open.
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  }

  return { endpoint, client, createTable, stop };
}

/** A table keyed like the ledger and the effects table: string `pk` (hash) and `sk` (range), on demand. */
export function pkSkTable(name: string): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "pk", AttributeType: "S" },
      { AttributeName: "sk", AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: "pk", KeyType: "HASH" },
      { AttributeName: "sk", KeyType: "RANGE" },
    ],
  };
}
