import { CreateTableCommand, DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { startDynamo, waitForTableActive } from "../../src/dynamodb";
import type { LocalDynamo } from "../../src/dynamodb";
import { createLambdaRunner } from "../../src/lambda";
import type { LambdaRunner } from "../../src/lambda";
import { waitFor } from "@effectively-once/testing";
import { buildHandlerBundle } from "./fixture";

/** A handler the way the project writes them: Powertools logger + idempotency with the DynamoDB persistence layer. */
const POWERTOOLS_HANDLER = `
import { Logger } from "@aws-lambda-powertools/logger";
import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
const logger = new Logger({ serviceName: "payments" });
const persistenceStore = new DynamoDBPersistenceLayer({ tableName: process.env.IDEMPOTENCY_TABLE });
const config = new IdempotencyConfig({ eventKeyJmesPath: "key" });
let executions = 0;
export const handler = makeIdempotent(async (event, context) => {
  config.registerLambdaContext(context);
  executions += 1;
  logger.info("charging", { key: event.key });
  return { charged: event.key, executions };
}, { persistenceStore, config });
`;

let dynamo: LocalDynamo;
let client: DynamoDBClient;
let runner: LambdaRunner;
let cleanup: () => Promise<void>;
const lines: string[] = [];

beforeAll(async () => {
  const [started, bundle] = await Promise.all([startDynamo(), buildHandlerBundle(POWERTOOLS_HANDLER)]);
  dynamo = started;
  cleanup = bundle.cleanup;
  client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: { accessKeyId: "l", secretAccessKey: "l" } });
  await client.send(
    new CreateTableCommand({
      TableName: "idempotency",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
    }),
  );
  await waitForTableActive(client, "idempotency");
  runner = await createLambdaRunner({
    functions: [
      {
        name: "payments",
        arn: "arn:aws:lambda:us-east-1:123456789012:function:payments",
        bundle: { dir: bundle.dir },
        env: { IDEMPOTENCY_TABLE: "idempotency" },
        timeoutSeconds: 5,
      },
    ],
    endpoints: { dynamodb: dynamo.endpoint },
    logs: (line) => lines.push(line),
  });
});

afterAll(async () => {
  await runner?.stop();
  client?.destroy();
  await dynamo?.stop();
  await cleanup?.();
});

describe("Powertools inside the Lambda runner", () => {
  it("runs an idempotent handler: the repeat returns the stored result, keyed with the function name", async () => {
    // Act
    const first = await runner.invoke({ FunctionName: "payments", Payload: JSON.stringify({ key: "t1#o1" }) });
    const repeat = await runner.invoke({ FunctionName: "payments", Payload: JSON.stringify({ key: "t1#o1" }) });
    const { Items = [] } = await client.send(new ScanCommand({ TableName: "idempotency", ConsistentRead: true }));
    const logLine = await waitFor(() => lines.find((line) => line.includes('"charging"')), { message: "Powertools log line" });
    // Assert
    expect(JSON.parse(first.Payload)).toEqual({ charged: "t1#o1", executions: 1 });
    expect(JSON.parse(repeat.Payload)).toEqual({ charged: "t1#o1", executions: 1 });
    expect(Items).toHaveLength(1);
    expect(Items[0]?.id?.S).toMatch(/^payments#/); // AWS_LAMBDA_FUNCTION_NAME reached Powertools
    expect(Items[0]?.status?.S).toBe("COMPLETED");
    expect(JSON.parse(logLine)).toMatchObject({ level: "INFO", message: "charging", service: "payments", key: "t1#o1" });
    expect(lines.some((line) => line.includes("NodeVersionSupportWarning"))).toBe(false);
  });
});
