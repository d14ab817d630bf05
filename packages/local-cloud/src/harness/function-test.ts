import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Context } from "aws-lambda";
import { ContractEnv, EFFECTS_TABLE_ENV } from "@effectively-once/contract";
import { functionVariables, resolveProps, type PipelineDomain } from "@effectively-once/pipeline/settings";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- dynalite ships no types; this is the part of its API used here
const dynalite = require("dynalite") as (options: { createTableMs: number; deleteTableMs: number }) => Server;

/** The two tables a pipeline function uses: Powertools' (`id`) and an effect journal (`pk`/`sk`). */
export interface FunctionTables {
  /** Name of the Powertools idempotency table (hash key `id`). */
  readonly idempotency: string;
  /** Name of the effect journal table (`pk`/`sk`). */
  readonly effects: string;
}

/** A running in-memory DynamoDB for a function under test. */
export interface LocalDynamoDb {
  /** Its endpoint (`http://127.0.0.1:<port>`), for `functionEnvironment` and your own clients. */
  readonly endpoint: string;
  /** A client for it. */
  readonly client: DynamoDBClient;
  /** Stops dynalite and destroys the client. */
  stop(): Promise<void>;
}

/**
 * An in-memory DynamoDB (dynalite) on 127.0.0.1 with a function's two tables, and a client for it: for unit tests of
 * a side effect against the real Powertools persistence layer and the real SDK.
 */
export async function startLocalDynamoDb(tables: FunctionTables): Promise<LocalDynamoDb> {
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

/**
 * The environment the construct gives a function of `domain` (named `name`, default props: the construct's own
 * mapping), pointed at a local DynamoDB, with the effect journal's table and logs silenced.
 */
export function functionEnvironment(domain: PipelineDomain, name: string, endpoint: string, tables: FunctionTables): Record<string, string> {
  const props = resolveProps({ ...domain, namePrefix: name, function: { name, entry: "(unit test)" } });
  return {
    ...functionVariables(props, tables.idempotency),
    [EFFECTS_TABLE_ENV]: tables.effects,
    [ContractEnv.LogLevel]: "SILENT",
    AWS_LAMBDA_FUNCTION_NAME: `${name}-test`,
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

/** A Lambda-shaped context, as the runtime passes it; `remainingMs` is what Powertools reads. */
export function lambdaContext(functionName: string, remainingMs = 30_000): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "256",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "2025/01/01/[$LATEST]local",
    getRemainingTimeInMillis: () => remainingMs,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
