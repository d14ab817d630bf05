import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createPipelineHandler, EffectJournal } from "../../src";
import { depositEnv, depositFunction, FUNCTION_NAME } from "./deposit";

/**
 * One "container" of the function built through the wrapper's dependency seam, with its own clients so a test can
 * slow down or fail the calls of this instance only: one for Powertools, one for the effect journal.
 */
export function depositInstance(endpoint: string, tables: { idempotency: string; effects: string }) {
  const env = depositEnv(endpoint, tables);
  const clientConfig = { endpoint, region: env.AWS_REGION, credentials: { accessKeyId: "local", secretAccessKey: "local" } };
  const dynamoDb = new DynamoDBClient(clientConfig);
  const effectsClient = new DynamoDBClient(clientConfig);
  const handler = createPipelineHandler(
    {
      ...depositFunction,
      setup: ({ config }) =>
        new EffectJournal({ documentClient: DynamoDBDocumentClient.from(effectsClient), tableName: tables.effects, retentionSeconds: config.expiresAfterSeconds }),
    },
    { env, dynamoDb, logger: new Logger({ serviceName: env.POWERTOOLS_SERVICE_NAME, logLevel: "SILENT" }) },
  );
  return {
    functionName: FUNCTION_NAME,
    handler,
    /** Client of the Powertools persistence layer. */
    dynamoDb,
    /** Client of the effect journal. */
    effectsClient,
    destroy: () => {
      dynamoDb.destroy();
      effectsClient.destroy();
    },
  };
}
