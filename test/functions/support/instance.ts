import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { readPaymentsConfig } from "../../../examples/payments/functions/config";
import { createPaymentsHandler } from "../../../examples/payments/functions/create-handler";
import { paymentsEnv } from "./payments-env";

/**
 * One "container" of the function built through its dependency seam, with its own clients so a
 * test can slow down or fail the calls of this instance only. Same factory the module uses.
 */
export function paymentsInstance(endpoint: string, tables: { idempotency: string; effects: string }) {
  const config = readPaymentsConfig(paymentsEnv(endpoint, tables));
  const clientConfig = {
    endpoint,
    region: config.region,
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  };
  const dynamoDb = new DynamoDBClient(clientConfig);
  const effectsClient = new DynamoDBClient(clientConfig);
  const logger = new Logger({ serviceName: config.serviceName, logLevel: config.logLevel });
  const handler = createPaymentsHandler({
    config,
    dynamoDb,
    documentClient: DynamoDBDocumentClient.from(effectsClient),
    logger,
  });
  return {
    config,
    handler,
    /** Client of the Powertools persistence layer. */
    dynamoDb,
    /** Client of the downstream stand-in. */
    effectsClient,
    destroy: () => {
      dynamoDb.destroy();
      effectsClient.destroy();
    },
  };
}
