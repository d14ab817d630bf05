import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Context } from "aws-lambda";
import { contractEnvironment } from "../../../src";
import { INVOICES_DOMAIN } from "../identity";

// dynalite ships no types; this is the part of its API the tests use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require("dynalite") as (options: { createTableMs: number; deleteTableMs: number }) => Server;

/** An in-memory DynamoDB (dynalite) on 127.0.0.1 with the function's two tables, and a client for it. */
export async function startLocalDynamoDb(tables: { idempotency: string; effects: string }) {
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new DynamoDBClient({ endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
  const string = (name: string) => ({ AttributeName: name, AttributeType: "S" as const });
  await client.send(new CreateTableCommand({ TableName: tables.idempotency, BillingMode: "PAY_PER_REQUEST", AttributeDefinitions: [string("id")], KeySchema: [{ AttributeName: "id", KeyType: "HASH" }] }));
  await client.send(
    new CreateTableCommand({
      TableName: tables.effects,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [string("pk"), string("sk")],
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
    }),
  );
  // dynalite flips CREATING to ACTIVE on a zero-delay timer.
  await new Promise((resolve) => setTimeout(resolve, 5));
  return {
    endpoint,
    client,
    stop: async () => {
      client.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The environment the construct gives the function, pointed at the local DynamoDB. */
export function functionEnv(endpoint: string, tables: { idempotency: string; effects: string }): Record<string, string> {
  return {
    ...contractEnvironment(INVOICES_DOMAIN),
    IDEMPOTENCY_TABLE_NAME: tables.idempotency,
    EFFECTS_TABLE_NAME: tables.effects,
    IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "3600",
    POWERTOOLS_SERVICE_NAME: "invoices",
    POWERTOOLS_LOG_LEVEL: "SILENT",
    AWS_LAMBDA_FUNCTION_NAME: "invoices-test",
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

/** A Lambda-shaped context, as the runtime passes it. */
export function lambdaContext(functionName = "invoices-test"): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "256",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
