import { CreateTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { SignatureV4 } from "@smithy/signature-v4";
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { startDynamo, waitForTableActive, type LocalDynamo } from "../../src/dynamodb";
import { JsonProtocolClient, ServiceError } from "../../src/json-protocol";
import { signRequest } from "../../src/json-protocol/sigv4";
import { UnsupportedCommandError } from "../../src/json-protocol/errors";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";

/** The checksum constructor the SDK signer takes (SHA-256, or HMAC-SHA-256 with a secret), on node:crypto. */
class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | Uint8Array) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", secret);
  }
  update(data: string | Uint8Array): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

describe("Function: signRequest", () => {
  it("signs exactly as the AWS SDK's SigV4 signer does", async () => {
    // Arrange
    const now = new Date("2026-01-02T03:04:05.000Z");
    const body = JSON.stringify({ TableName: "ledger", Key: { pk: { S: "acme#1" } } });
    const headers = { "content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810.GetItem" };
    const sdk = new SignatureV4({ credentials: LOCAL_CREDENTIALS, region: "us-east-1", service: "dynamodb", sha256: NodeSha256 as never, applyChecksum: false });

    // Act
    const ours = signRequest({ method: "POST", host: "127.0.0.1:8000", path: "/w/payments-1", headers, body, region: "us-east-1", service: "dynamodb", now }, LOCAL_CREDENTIALS);
    const theirs = await sdk.sign(
      { method: "POST", protocol: "http:", hostname: "127.0.0.1", port: 8000, path: "/w/payments-1", headers: { ...headers, host: "127.0.0.1:8000" }, body },
      { signingDate: now },
    );

    // Assert
    expect(ours.authorization).toBe(theirs.headers.authorization);
    expect(ours["x-amz-date"]).toBe("20260102T030405Z");
  });
});

describe("Class: JsonProtocolClient", () => {
  let dynamo: LocalDynamo;
  let client: JsonProtocolClient;
  beforeAll(async () => {
    dynamo = await startDynamo();
    const sdk = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: LOCAL_CREDENTIALS });
    await sdk.send(
      new CreateTableCommand({
        TableName: "json-client",
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      }),
    );
    await waitForTableActive(sdk, "json-client");
    sdk.destroy();
    client = new JsonProtocolClient({ endpoint: dynamo.endpoint, region: "us-east-1", service: "dynamodb", targetPrefix: "DynamoDB_20120810", credentials: LOCAL_CREDENTIALS });
  });
  afterAll(async () => {
    client.destroy();
    await dynamo.stop();
  });

  describe("Method: send", () => {
    it("posts an SDK command's input and returns the JSON answer with $metadata", async () => {
      // Act
      await client.send(new PutItemCommand({ TableName: "json-client", Item: { pk: { S: "k1" }, blob: { B: Buffer.from("hi").toString("base64") as never } } }));
      const out = await client.send<{ Item?: Record<string, unknown> }>(new GetItemCommand({ TableName: "json-client", Key: { pk: { S: "k1" } }, ConsistentRead: true }));

      // Assert: binary values stay base64 text, as on the wire
      expect(out.Item).toEqual({ pk: { S: "k1" }, blob: { B: "aGk=" } });
      expect(out.$metadata.httpStatusCode).toBe(200);
      expect(out.$metadata.requestId).toMatch(/^[A-Z0-9]{52}$/);
    });

    it("throws the service's error as an SDK-shaped exception named by its __type", async () => {
      // Arrange
      const put = new PutItemCommand({ TableName: "json-client", Item: { pk: { S: "k1" } }, ConditionExpression: "attribute_not_exists(pk)" });

      // Act
      const error = await client.send(put).catch((e: unknown) => e);

      // Assert
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ name: "ConditionalCheckFailedException", $fault: "client", $metadata: { httpStatusCode: 400 } });
      expect((error as Error).message).toBe("The conditional request failed");
    });

    it("refuses an object that is not an SDK command", async () => {
      await expect(client.send({ input: {} })).rejects.toBeInstanceOf(UnsupportedCommandError);
    });

    it("rejects at once when the signal is already aborted", async () => {
      const controller = new AbortController();
      controller.abort(new Error("stop"));
      await expect(client.send(new GetItemCommand({ TableName: "json-client", Key: { pk: { S: "k1" } } }), { abortSignal: controller.signal })).rejects.toThrow("stop");
    });
  });
});
