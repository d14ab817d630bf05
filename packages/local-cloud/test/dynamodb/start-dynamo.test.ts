import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { DynamoPlacement, startDynamo, waitForTableActive } from "../../src/dynamodb";
import { InvalidDynamoOptionError } from "../../src/dynamodb/errors";

const credentials = { accessKeyId: "local", secretAccessKey: "local" };

describe("Function: startDynamo", () => {
  it.each([DynamoPlacement.InProcess, DynamoPlacement.Worker])(
    "runs dynalite %s on 127.0.0.1 with real conditional writes, and stops",
    async (placement) => {
      // Arrange
      const dynamo = await startDynamo({ placement });
      const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials, maxAttempts: 1 });
      try {
        await client.send(
          new CreateTableCommand({
            TableName: "claims",
            BillingMode: "PAY_PER_REQUEST",
            AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
            KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
          }),
        );
        await waitForTableActive(client, "claims");
        const claim = () =>
          client.send(
            new PutItemCommand({
              TableName: "claims",
              Item: { pk: { S: "t1#o1" }, owner: { S: "m1" } },
              ConditionExpression: "attribute_not_exists(pk)",
            }),
          );
        // Act
        await claim();
        const second = await claim().catch((e: Error) => e);
        const ttl = await client
          .send(new UpdateTimeToLiveCommand({ TableName: "claims", TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true } }))
          .catch((e: Error) => e);
        const { Item } = await client.send(new GetItemCommand({ TableName: "claims", Key: { pk: { S: "t1#o1" } } }));
        // Assert
        expect(dynamo.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(dynamo.placement).toBe(placement);
        expect(second).toMatchObject({ name: "ConditionalCheckFailedException" });
        // dynalite keeps the setting (dynalite-fidelity.cjs); the TTL sweeper does the expiring.
        expect(ttl).toMatchObject({ TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true } });
        expect(Item?.owner).toEqual({ S: "m1" });
      } finally {
        client.destroy();
        await dynamo.stop();
      }
      const afterStop = await fetch(dynamo.endpoint).catch((e: Error) => e);
      expect(afterStop).toMatchObject({ cause: { code: "ECONNREFUSED" } });
    },
  );

  it("rejects an unknown placement with the allowed values", async () => {
    await expect(startDynamo({ placement: "cloud" as DynamoPlacement })).rejects.toThrow(InvalidDynamoOptionError);
    await expect(startDynamo({ placement: "cloud" as DynamoPlacement })).rejects.toThrow(/"worker" or "in-process"/);
  });
});
