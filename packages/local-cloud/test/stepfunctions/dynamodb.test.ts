/** The DynamoDB integrations against dynalite with the real SDK. */
import { createTable, startBareDynalite, type LocalDynamo } from "@effectively-once/testing";
import { runOnce } from "@effectively-once/testing";

let ddb: LocalDynamo;
beforeAll(async () => {
  ddb = await startBareDynalite();
  await createTable(ddb.client, "ledger");
});
afterAll(async () => ddb.close());

const claim = (conditionCatch: boolean) => ({
  QueryLanguage: "JSONata",
  StartAt: "Claim",
  States: {
    Claim: {
      Type: "Task",
      Resource: "arn:aws:states:::dynamodb:putItem",
      Arguments: {
        TableName: "ledger",
        Item: { pk: { S: "{% $states.input.key %}" }, sk: { S: "charge" }, owner: { S: "{% $states.input.owner %}" }, n: { N: "{% $string($states.input.n) %}" } },
        ConditionExpression: "attribute_not_exists(pk)",
      },
      ...(conditionCatch ? { Catch: [{ ErrorEquals: ["DynamoDB.ConditionalCheckFailedException"], Output: { duplicate: true, error: "{% $states.errorOutput %}" }, Next: "Inspect" }] } : {}),
      Output: { claimed: true },
      End: true,
    },
    Inspect: {
      Type: "Task",
      Resource: "arn:aws:states:::dynamodb:getItem",
      Arguments: { TableName: "ledger", Key: { pk: { S: "{% $states.context.Execution.Input.key %}" }, sk: { S: "charge" } }, ConsistentRead: true },
      Output: { duplicate: "{% $states.input.duplicate %}", cause: "{% $states.input.error.Cause %}", owner: "{% $states.result.Item.owner.S %}" },
      End: true,
    },
  },
});

describe("arn:aws:states:::dynamodb:*", () => {
  it("puts an item, then catches DynamoDB.ConditionalCheckFailedException on the second put", async () => {
    const integrations = { dynamodb: ddb.client };
    const first = await runOnce(claim(true), { key: "t1#o1", owner: "m1", n: 1 }, { integrations });
    expect(first.output).toEqual({ claimed: true });
    const second = await runOnce(claim(true), { key: "t1#o1", owner: "m2", n: 2 }, { integrations });
    expect(second.status).toBe("SUCCEEDED");
    expect(second.output).toMatchObject({ duplicate: true, owner: "m1" });
    expect((second.output as { cause: string }).cause).toMatch(/^The conditional request failed \(Service: AmazonDynamoDBv2; Status Code: 400; Error Code: ConditionalCheckFailedException; Request ID: .*; Proxy: null\)$/);
    const uncaught = await runOnce(claim(false), { key: "t1#o1", owner: "m3", n: 3 }, { integrations });
    expect([uncaught.status, uncaught.error]).toEqual(["FAILED", "DynamoDB.ConditionalCheckFailedException"]);
    expect(uncaught.events.map((e) => e.type)).toContain("TaskFailed");
  });

  it("returns AWS-shaped results for getItem/updateItem/deleteItem (low-level attribute values, SDK metadata)", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Put",
      States: {
        Put: { Type: "Task", Resource: "arn:aws:states:::dynamodb:putItem", Arguments: { TableName: "ledger", Item: { pk: { S: "k2" }, sk: { S: "s" }, status: { S: "IN_PROGRESS" } } }, Output: "{% $states.result %}", Next: "Update" },
        Update: {
          Type: "Task",
          Resource: "arn:aws:states:::dynamodb:updateItem",
          Arguments: {
            TableName: "ledger",
            Key: { pk: { S: "k2" }, sk: { S: "s" } },
            UpdateExpression: "SET #s = :done",
            ConditionExpression: "#s = :ip",
            ExpressionAttributeNames: { "#s": "status" },
            ExpressionAttributeValues: { ":done": { S: "COMPLETED" }, ":ip": { S: "IN_PROGRESS" } },
            ReturnValues: "UPDATED_NEW",
          },
          Assign: { put: "{% $states.input %}", updated: "{% $states.result.Attributes %}" },
          Next: "Get",
        },
        Get: { Type: "Task", Resource: "arn:aws:states:::dynamodb:getItem", Arguments: { TableName: "ledger", Key: { pk: { S: "k2" }, sk: { S: "s" } } }, Assign: { item: "{% $states.result.Item %}" }, Next: "Delete" },
        Delete: { Type: "Task", Resource: "arn:aws:states:::dynamodb:deleteItem", Arguments: { TableName: "ledger", Key: { pk: { S: "k2" }, sk: { S: "s" } }, ReturnValues: "ALL_OLD" }, Assign: { deleted: "{% $states.result.Attributes %}" }, Next: "GetGone" },
        GetGone: { Type: "Task", Resource: "arn:aws:states:::dynamodb:getItem", Arguments: { TableName: "ledger", Key: { pk: { S: "k2" }, sk: { S: "s" } } }, Output: { put: "{% $put %}", updated: "{% $updated %}", item: "{% $item %}", deleted: "{% $deleted %}", gone: "{% $states.result %}" }, End: true },
      },
    };
    const run = await runOnce(def, {}, { integrations: { dynamodb: ddb.client } });
    expect(run.status).toBe("SUCCEEDED");
    const o = run.output as Record<string, Record<string, unknown>>;
    expect(o.put).toEqual({ SdkHttpMetadata: expect.objectContaining({ HttpStatusCode: 200 }), SdkResponseMetadata: { RequestId: expect.any(String) } });
    expect(o.updated).toEqual({ status: { S: "COMPLETED" } });
    expect(o.item).toEqual({ pk: { S: "k2" }, sk: { S: "s" }, status: { S: "COMPLETED" } });
    expect(o.deleted).toEqual(o.item);
    expect(o.gone).not.toHaveProperty("Item");
  });

  it("spells aws-sdk integration errors DynamoDb.<Exception>", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Q",
      States: {
        Q: {
          Type: "Task",
          Resource: "arn:aws:states:::aws-sdk:dynamodb:putItem",
          Arguments: { TableName: "ledger", Item: { pk: { S: "k3" }, sk: { S: "s" } }, ConditionExpression: "attribute_exists(pk)" },
          Catch: [{ ErrorEquals: ["DynamoDb.ConditionalCheckFailedException"], Next: "Caught" }],
          End: true,
        },
        Caught: { Type: "Task", Resource: "arn:aws:states:::aws-sdk:dynamodb:getItem", Arguments: { TableName: "missing-table", Key: { pk: { S: "x" } } }, End: true },
      },
    };
    const run = await runOnce(def, {}, { integrations: { dynamodb: ddb.client } });
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("DynamoDb.ResourceNotFoundException");
    expect(run.cause).toMatch(/\(Service: DynamoDb, Status Code: 400, Request ID: /);
    expect(run.events.filter((e) => e.type === "TaskFailed").map((e) => e.details?.error)).toEqual(["DynamoDb.ConditionalCheckFailedException", "DynamoDb.ResourceNotFoundException"]);
  });

  it("maps a missing table to DynamoDB.ResourceNotFoundException and a validation error to DynamoDB.AmazonDynamoDBException", async () => {
    const put = (table: string, item: unknown) => ({ QueryLanguage: "JSONata", StartAt: "P", States: { P: { Type: "Task", Resource: "arn:aws:states:::dynamodb:putItem", Arguments: { TableName: table, Item: item }, End: true } } });
    const missing = await runOnce(put("no-such-table", { pk: { S: "a" } }), {}, { integrations: { dynamodb: ddb.client } });
    expect(missing.error).toBe("DynamoDB.ResourceNotFoundException");
    const invalid = await runOnce(put("ledger", { pk: { S: "a" } }), {}, { integrations: { dynamodb: ddb.client } });
    expect(invalid.error).toBe("DynamoDB.AmazonDynamoDBException");
    expect(invalid.cause).toContain("Error Code: ValidationException");
  });
});
