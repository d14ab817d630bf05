import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { DynamoPlacement, startDynamo, waitForTableActive, type LocalDynamo } from "../../src/dynamodb";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";

describe("Function: startDynamo", () => {
  describe("Method: requests", () => {
    for (const placement of [DynamoPlacement.InProcess, DynamoPlacement.Worker]) {
      it(`counts the requests served per operation (${placement})`, async () => {
        // Arrange
        const dynamo: LocalDynamo = await startDynamo({ placement });
        const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: LOCAL_CREDENTIALS });
        try {
          await client.send(
            new CreateTableCommand({
              TableName: "count",
              BillingMode: "PAY_PER_REQUEST",
              AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
              KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
            }),
          );
          await waitForTableActive(client, "count");
          const before = dynamo.requests();

          // Act
          for (let i = 0; i < 3; i++) await client.send(new PutItemCommand({ TableName: "count", Item: { pk: { S: `k${i}` } } }));
          await client.send(new GetItemCommand({ TableName: "count", Key: { pk: { S: "k0" } } }));
          const after = dynamo.requests();

          // Assert
          expect(before.CreateTable).toBe(1);
          expect(before.PutItem).toBeUndefined();
          expect(after.PutItem).toBe(3);
          expect(after.GetItem).toBe(1);
        } finally {
          client.destroy();
          await dynamo.stop();
        }
      });
    }
  });
});
