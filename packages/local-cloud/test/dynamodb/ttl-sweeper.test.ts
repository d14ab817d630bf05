import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { pkSkTable } from "@effectively-once/testing";
import { ProxyVerdict, startDynamo, startDynamoFaultProxy, startTtlSweeper, waitForTableActive } from "../../src/dynamodb";
import { InvalidDynamoOptionError } from "../../src/dynamodb/errors";
import type { DynamoFaultProxy, LocalDynamo, TtlSweeper } from "../../src/dynamodb";
import { waitFor } from "@effectively-once/testing";

const NOW_MS = Date.UTC(2030, 0, 1);
const NOW_S = NOW_MS / 1000;
const credentials = { accessKeyId: "local", secretAccessKey: "local" };

let dynamo: LocalDynamo;
let client: DynamoDBClient;
let proxy: DynamoFaultProxy | undefined;
const sweepers: TtlSweeper[] = [];
let tableCount = 0;

beforeAll(async () => {
  dynamo = await startDynamo();
  client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials });
});

afterAll(async () => {
  await Promise.all(sweepers.map((s) => s.stop()));
  client?.destroy();
  await proxy?.stop();
  await dynamo?.stop();
});

/** A ledger-shaped table (pk/sk) with a TTL attribute `expiresAt`. */
async function newTable(): Promise<string> {
  tableCount += 1;
  const name = `ledger-${tableCount}`;
  await client.send(new CreateTableCommand(pkSkTable(name)));
  await waitForTableActive(client, name);
  return name;
}

const put = (table: string, pk: string, expiresAt?: AttributeValue) =>
  client.send(
    new PutItemCommand({
      TableName: table,
      Item: { pk: { S: pk }, sk: { S: "charge" }, ...(expiresAt ? { expiresAt } : {}) },
    }),
  );

async function remaining(table: string): Promise<string[]> {
  const { Items = [] } = await client.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  return Items.map((item) => item.pk?.S as string).sort();
}

function sweeper(tables: string[], extra: { intervalMs?: number; client?: DynamoDBClient } = {}): TtlSweeper {
  const s = startTtlSweeper({
    client: extra.client ?? client,
    tables: tables.map((tableName) => ({ tableName, attributeName: "expiresAt" })),
    intervalMs: extra.intervalMs ?? 0,
    clock: () => NOW_MS,
  });
  sweepers.push(s);
  return s;
}

describe("Function: startTtlSweeper", () => {
  it("deletes items whose TTL (epoch seconds) is below now and keeps all others, like DynamoDB TTL", async () => {
    // Arrange
    const table = await newTable();
    await put(table, "expired", { N: String(NOW_S - 1) });
    await put(table, "expired-long-ago", { N: String(NOW_S - 3 * 365 * 24 * 3600) });
    await put(table, "expires-now", { N: String(NOW_S) }); // not below now yet
    await put(table, "future", { N: String(NOW_S + 3600) });
    await put(table, "milliseconds", { N: String(NOW_MS) }); // a unit mistake: far in the future, kept
    await put(table, "older-than-5-years", { N: String(NOW_S - 6 * 365 * 24 * 3600) }); // DynamoDB ignores these
    await put(table, "string-ttl", { S: String(NOW_S - 10) }); // not a Number: ignored
    await put(table, "no-ttl");
    const s = sweeper([table]);
    // Act
    const result = await s.sweepOnce();
    // Assert
    expect(result).toEqual({ deleted: { [table]: 2 }, skipped: 0 });
    expect(await remaining(table)).toEqual(["expires-now", "future", "milliseconds", "no-ttl", "older-than-5-years", "string-ttl"]);
    expect(s.stats()).toEqual({ sweeps: 1, deleted: 2, deletedByTable: { [table]: 2 }, skipped: 0, errors: 0 });
  });

  it("sweeps several tables and counts per table", async () => {
    const a = await newTable();
    const b = await newTable();
    await put(a, "a1", { N: String(NOW_S - 5) });
    await put(b, "b1", { N: String(NOW_S - 5) });
    await put(b, "b2", { N: String(NOW_S - 5) });
    const s = sweeper([a, b]);
    expect((await s.sweepOnce()).deleted).toEqual({ [a]: 1, [b]: 2 });
    expect(await remaining(a)).toEqual([]);
    expect(await remaining(b)).toEqual([]);
  });

  it("re-checks expiry in the delete: an item refreshed after the scan survives", async () => {
    // Arrange: a proxy hook refreshes the item just before the sweeper's DeleteItem reaches the table.
    const table = await newTable();
    await put(table, "refreshed", { N: String(NOW_S - 5) });
    proxy = await startDynamoFaultProxy({ target: dynamo.endpoint });
    proxy.addHooks({
      onRequest: async ({ request }) => {
        if (request.operation !== "DeleteItem") return ProxyVerdict.Forward;
        await client.send(
          new UpdateItemCommand({
            TableName: table,
            Key: { pk: { S: "refreshed" }, sk: { S: "charge" } },
            UpdateExpression: "SET expiresAt = :later",
            ExpressionAttributeValues: { ":later": { N: String(NOW_S + 3600) } },
          }),
        );
        return ProxyVerdict.Forward;
      },
    });
    const viaProxy = new DynamoDBClient({ endpoint: proxy.endpoint, region: "us-east-1", credentials });
    const s = sweeper([table], { client: viaProxy });
    try {
      // Act
      const result = await s.sweepOnce();
      // Assert
      expect(result).toEqual({ deleted: {}, skipped: 1 });
      const { Item } = await client.send(
        new GetItemCommand({ TableName: table, Key: { pk: { S: "refreshed" }, sk: { S: "charge" } }, ConsistentRead: true }),
      );
      expect(Item?.expiresAt).toEqual({ N: String(NOW_S + 3600) });
    } finally {
      viaProxy.destroy();
    }
  });

  it("sweeps on its own every interval until stopped", async () => {
    // Arrange
    const table = await newTable();
    const s = sweeper([table], { intervalMs: 10 });
    // Act
    await put(table, "first", { N: String(NOW_S - 1) });
    await waitFor(() => s.stats().deleted === 1, { message: "first expired item swept", timeoutMs: 3_000 });
    await put(table, "second", { N: String(NOW_S - 1) });
    await waitFor(() => s.stats().deleted === 2, { message: "second expired item swept", timeoutMs: 3_000 });
    await s.stop();
    const sweepsAtStop = s.stats().sweeps;
    await put(table, "after-stop", { N: String(NOW_S - 1) });
    await client.send(new ScanCommand({ TableName: table })); // time passes by a round trip, not a sleep
    // Assert
    expect(await remaining(table)).toEqual(["after-stop"]);
    expect(s.stats().sweeps).toBe(sweepsAtStop);
  });

  it.each([
    [{ tables: [{ tableName: "t", attributeName: "" }] }, /tables\[0\]\.attributeName is required/],
    [{ tables: [{ tableName: "", attributeName: "x" }] }, /tables\[0\]\.tableName is required/],
    [{ tables: [], intervalMs: -1 }, /intervalMs must be ≥ 0/],
  ])("rejects bad options naming the field (%#)", (options, message) => {
    expect(() => startTtlSweeper({ client, ...options })).toThrow(InvalidDynamoOptionError);
    expect(() => startTtlSweeper({ client, ...options })).toThrow(message);
  });
});
