// Replays of LocalStack's AWS-validated DynamoDB snapshot tests (Apache-2.0; tests/aws/services/dynamodb/
// test_dynamodb.py and test_dynamodb.snapshot.json, test named in each `recording(...)` call), against the local
// DynamoDB in both placements (worker thread as the local cloud runs it, and in process).
import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
} from "@aws-sdk/client-dynamodb";
import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { DynamoPlacement, startDynamo, waitForTableActive } from "../../src/dynamodb";
import type { LocalDynamo } from "../../src/dynamodb";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import { answer, expectReplay, failure, failureText, recording } from "./replay";

describe.each([DynamoPlacement.Worker, DynamoPlacement.InProcess])("DynamoDB as recorded on AWS (dynalite, %s)", (placement) => {
  let dynamo: LocalDynamo;
  let client: DynamoDBClient;
  let tables = 0;
  beforeAll(async () => {
    dynamo = await startDynamo({ placement });
    client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: LOCAL_CREDENTIALS });
  });
  afterAll(async () => {
    client?.destroy();
    await dynamo?.stop();
  });

  async function table(key: string, range?: string): Promise<{ name: string; arn: string }> {
    tables += 1;
    const name = `replay-${tables}`;
    const definition: CreateTableCommandInput = {
      TableName: name,
      KeySchema: [{ AttributeName: key, KeyType: "HASH" }, ...(range ? [{ AttributeName: range, KeyType: "RANGE" as const }] : [])],
      AttributeDefinitions: [{ AttributeName: key, AttributeType: "S" }, ...(range ? [{ AttributeName: range, AttributeType: "S" as const }] : [])],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    };
    const created = await client.send(new CreateTableCommand(definition));
    await waitForTableActive(client, name);
    return { name, arn: created.TableDescription?.TableArn as string };
  }

  it("a failed condition with ReturnValuesOnConditionCheckFailure ALL_OLD returns the item", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_return_values_on_conditions_check_failure");
    const { name } = await table("id");
    await client.send(new PutItemCommand({ TableName: name, Item: { id: { S: "456" }, price: { N: "650" }, product: { S: "sporting goods" } } }));
    const call = client.send(
      new DeleteItemCommand({
        TableName: name,
        Key: { id: { S: "456" } },
        ConditionExpression: "price between :lo and :hi",
        ExpressionAttributeValues: { ":lo": { N: "500" }, ":hi": { N: "600" } },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    expectReplay(rec, { items: await failure(call) }, { skip: ["$..message"] });
  });

  it("PutItem ReturnValues ALL_OLD", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_return_values_in_put_item");
    const { name } = await table("id");
    const put = async (data: string, ReturnValues?: "ALL_OLD") => answer(await client.send(new PutItemCommand({ TableName: name, Item: { id: { S: "id1" }, data: { S: data } }, ReturnValues })));
    expectReplay(rec, {
      PutFirstItem: await put("foobar", "ALL_OLD"),
      PutFirstItemOLD: await put("foobar", "ALL_OLD"),
      PutFirstItemB: await put("barfoo", "ALL_OLD"),
      PutSecondItem: await put("foobar"),
      PutSecondItemReturnNone: await put("foobar"),
    });
  });

  it("TransactWriteItems: ConditionCheck, Put, Update and Delete, by table name and by table ARN", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_transaction_write_items");
    const write = async (TableName: string) =>
      answer(
        await client.send(
          new TransactWriteItemsCommand({
            TransactItems: [
              { ConditionCheck: { TableName, ConditionExpression: "attribute_not_exists(id)", Key: { id: { S: "test1" } } } },
              { Put: { TableName, Item: { id: { S: "test2" } } } },
              { Update: { TableName, Key: { id: { S: "test3" } }, UpdateExpression: "SET attr1 = :v1, attr2 = :v2", ExpressionAttributeValues: { ":v1": { S: "value1" }, ":v2": { S: "value2" } } } },
              { Delete: { TableName, Key: { id: { S: "test4" } } } },
            ],
          }),
        ),
      );
    const byName = await table("id");
    const response = await write(byName.name);
    const byArn = await table("id");
    expectReplay(rec, { Response: response, Response_using_table_arn: await write(byArn.arn) });
    const updated = await client.send(new GetItemCommand({ TableName: byName.name, Key: { id: { S: "test3" } } }));
    expect(updated.Item).toEqual({ id: { S: "test3" }, attr1: { S: "value1" }, attr2: { S: "value2" } });
  });

  it("TransactWriteItems cancelled by a failed ConditionCheck: TransactionCanceledException, nothing written", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_transaction_write_canceled");
    const { name } = await table("Username");
    await client.send(new PutItemCommand({ TableName: name, Item: { Username: { S: "Fred" } } }));
    await client.send(new PutItemCommand({ TableName: name, Item: { Username: { S: "Bert" } } }));
    const call = client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { ConditionCheck: { TableName: name, ConditionExpression: "attribute_not_exists(Username)", Key: { Username: { S: "Fred" } } } },
          { Delete: { TableName: name, Key: { Username: { S: "Bert" } } } },
        ],
      }),
    );
    expectReplay(rec, { Error: await failureText(call, "TransactWriteItems") });
    expect((await client.send(new GetItemCommand({ TableName: name, Key: { Username: { S: "Bert" } } }))).Item).toBeDefined();
  });

  it("TransactWriteItems writes binary values as they are", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_transaction_write_binary_data");
    const { name } = await table("id");
    const written = await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: name, Item: { id: { S: "someUser" }, binaryData: { B: Buffer.from("foobar") } } } }] }));
    const { Item } = await client.send(new GetItemCommand({ TableName: name, Key: { id: { S: "someUser" } } }));
    expectReplay(rec, { WriteResponse: answer(written), GetItem: Item });
  });

  it("TransactGetItems by table name and by table ARN", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_transact_get_items");
    const first = await table("id");
    await client.send(new PutItemCommand({ TableName: first.name, Item: { id: { S: "John" } } }));
    const john = await client.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { Key: { id: { S: "John" } }, TableName: first.name } }] }));
    const second = await table("id");
    await client.send(new PutItemCommand({ TableName: second.name, Item: { id: { S: "Sarah" } } }));
    const sarah = await client.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { Key: { id: { S: "Sarah" } }, TableName: second.arn } }] }));
    expectReplay(rec, { TransactGetItems: answer(john), "TransactGetItems-with-TableArn": answer(sarah) });
  });

  it("the same ClientRequestToken with the same item (attributes in another order) succeeds again", async () => {
    const rec = recording("dynamodb", "TestDynamoDB::test_dynamodb_idempotent_writing");
    const { name } = await table("id", "name");
    const write = async (Item: Record<string, { S: string }>) =>
      answer(await client.send(new TransactWriteItemsCommand({ ClientRequestToken: "dedupe_token", TransactItems: [{ Put: { TableName: name, Item } }] })));
    expectReplay(rec, {
      Response1: await write({ id: { S: "id1" }, name: { S: "name1" } }),
      Response2: await write({ name: { S: "name1" }, id: { S: "id1" } }),
    });
  });
});
