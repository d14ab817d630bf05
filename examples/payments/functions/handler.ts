import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { readPaymentsConfig } from "./config";
import { createPaymentsHandler } from "./create-handler";

// Cold start: read the environment (fails naming the variable) and build clients once per container.
// The SDK picks up AWS_ENDPOINT_URL_DYNAMODB by itself, which is how the local cloud redirects it.
const config = readPaymentsConfig(process.env);
const dynamoDb = new DynamoDBClient({ region: config.region });
const documentClient = DynamoDBDocumentClient.from(dynamoDb);
const logger = new Logger({ serviceName: config.serviceName, logLevel: config.logLevel });

export const handler = createPaymentsHandler({ config, dynamoDb, documentClient, logger });
