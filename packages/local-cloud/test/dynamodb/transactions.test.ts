import {
  DeleteTableCommand,
  DescribeTimeToLiveCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import type { TransactWriteItem } from "@aws-sdk/client-dynamodb";
import { pkSkTable, startDynalite } from "@effectively-once/testing";
import type { Dynalite } from "@effectively-once/testing";

// The local DynamoDB's transactions, ALL_OLD on a failed condition and TTL settings, as the DynamoDB API reference
// documents them (TransactWriteItems, ConditionalCheckFailedException, UpdateTimeToLive). The answers AWS recorded
// are replayed in packages/local-cloud/test/parity/dynamodb.replay.test.ts.
let dynamo: Dynalite;
let tables = 0;

beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => dynamo?.stop());

async function table(): Promise<string> {
  tables += 1;
  const name = `tx-${tables}`;
  await dynamo.createTable(pkSkTable(name));
  return name;
}

const key = (pk: string) => ({ pk: { S: pk }, sk: { S: "charge" } });
const item = async (TableName: string, pk: string) => (await dynamo.client.send(new GetItemCommand({ TableName, Key: key(pk), ConsistentRead: true }))).Item;
const transact = (TransactItems: TransactWriteItem[], ClientRequestToken?: string) => dynamo.client.send(new TransactWriteItemsCommand({ TransactItems, ClientRequestToken }));

async function rejection(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return error as Error & { CancellationReasons?: unknown; Item?: unknown };
  }
  throw new Error("the call succeeded");
}

describe("TransactWriteItems", () => {
  it("writes nothing when one condition fails, and names each item's reason in order (ALL_OLD gives the item)", async () => {
    const name = await table();
    await dynamo.client.send(new PutItemCommand({ TableName: name, Item: { ...key("a"), status: { S: "COMPLETED" } } }));

    const error = await rejection(
      transact([
        { Put: { TableName: name, Item: { ...key("b"), status: { S: "IN_PROGRESS" } } } },
        { Put: { TableName: name, Item: { ...key("a"), status: { S: "IN_PROGRESS" } }, ConditionExpression: "attribute_not_exists(pk)", ReturnValuesOnConditionCheckFailure: "ALL_OLD" } },
        { Delete: { TableName: name, Key: key("c") } },
      ]),
    );

    expect(error.name).toBe("TransactionCanceledException");
    expect(error.message).toBe("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None]");
    expect(error.CancellationReasons).toEqual([
      { Code: "None" },
      { Code: "ConditionalCheckFailed", Message: "The conditional request failed", Item: { ...key("a"), status: { S: "COMPLETED" } } },
      { Code: "None" },
    ]);
    expect(await item(name, "b")).toBeUndefined();
    expect((await item(name, "a"))?.status).toEqual({ S: "COMPLETED" });
  });

  it("undoes the writes already made when a later one fails validation (ValidationError), so all or nothing holds", async () => {
    const name = await table();
    await dynamo.client.send(new PutItemCommand({ TableName: name, Item: { ...key("n"), count: { S: "not a number" } } }));

    const error = await rejection(
      transact([
        { Put: { TableName: name, Item: { ...key("first") } } },
        { Update: { TableName: name, Key: key("n"), UpdateExpression: "SET #c = #c + :one", ExpressionAttributeNames: { "#c": "count" }, ExpressionAttributeValues: { ":one": { N: "1" } } } },
      ]),
    );

    expect(error.name).toBe("TransactionCanceledException");
    expect((error.CancellationReasons as Array<{ Code: string }>).map((r) => r.Code)).toEqual(["None", "ValidationError"]);
    expect(await item(name, "first")).toBeUndefined();
  });

  it("refuses two operations on one item", async () => {
    const name = await table();
    const error = await rejection(transact([{ Put: { TableName: name, Item: key("x") } }, { Delete: { TableName: name, Key: key("x") } }]));
    expect([error.name, error.message]).toEqual(["ValidationException", "Transaction request cannot include multiple operations on one item"]);
  });

  it("with a ClientRequestToken: the same request again writes nothing more; other parameters are a mismatch", async () => {
    const name = await table();
    await transact([{ Update: { TableName: name, Key: key("k"), UpdateExpression: "ADD hits :one", ExpressionAttributeValues: { ":one": { N: "1" } } } }], "token-1");
    await transact([{ Update: { TableName: name, Key: key("k"), UpdateExpression: "ADD hits :one", ExpressionAttributeValues: { ":one": { N: "1" } } } }], "token-1");
    const mismatch = await rejection(transact([{ Delete: { TableName: name, Key: key("k") } }], "token-1"));
    expect((await item(name, "k"))?.hits).toEqual({ N: "1" });
    expect(mismatch.name).toBe("IdempotentParameterMismatchException");
  });
});

describe("ReturnValuesOnConditionCheckFailure", () => {
  it("ALL_OLD returns the item with ConditionalCheckFailedException (UpdateItem); NONE and a missing item return none", async () => {
    const name = await table();
    await dynamo.client.send(new PutItemCommand({ TableName: name, Item: { ...key("a"), owner: { S: "m1" } } }));
    const update = (pk: string, ReturnValuesOnConditionCheckFailure?: "ALL_OLD" | "NONE") =>
      rejection(dynamo.client.send(new UpdateItemCommand({ TableName: name, Key: key(pk), UpdateExpression: "SET #o = :me", ConditionExpression: "#o = :me", ExpressionAttributeNames: { "#o": "owner" }, ExpressionAttributeValues: { ":me": { S: "m2" } }, ReturnValuesOnConditionCheckFailure })));
    expect((await update("a", "ALL_OLD")).Item).toEqual({ ...key("a"), owner: { S: "m1" } });
    expect((await update("a", "NONE")).Item).toBeUndefined();
    expect((await update("a")).Item).toBeUndefined();
    expect((await update("absent", "ALL_OLD")).Item).toBeUndefined();
  });
});

describe("UpdateTimeToLive / DescribeTimeToLive", () => {
  it("report the table's setting: DISABLED, ENABLED with its attribute, refusals of a repeat, DISABLED again for a new table", async () => {
    const name = await table();
    const describe = async () => (await dynamo.client.send(new DescribeTimeToLiveCommand({ TableName: name }))).TimeToLiveDescription;
    const update = (Enabled: boolean) => dynamo.client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { Enabled, AttributeName: "expiresAt" } }));

    expect(await describe()).toEqual({ TimeToLiveStatus: "DISABLED" });
    expect((await update(true)).TimeToLiveSpecification).toEqual({ Enabled: true, AttributeName: "expiresAt" });
    expect(await describe()).toEqual({ TimeToLiveStatus: "ENABLED", AttributeName: "expiresAt" });
    expect((await rejection(update(true))).message).toBe("TimeToLive is already enabled");
    await dynamo.client.send(new DeleteTableCommand({ TableName: name }));
    await dynamo.createTable(pkSkTable(name));
    expect(await describe()).toEqual({ TimeToLiveStatus: "DISABLED" });
    expect((await rejection(dynamo.client.send(new DescribeTimeToLiveCommand({ TableName: "no-such-table" })))).name).toBe("ResourceNotFoundException");
  });
});
