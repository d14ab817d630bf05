/** Resource ARN patterns and their handlers. Add an integration by adding a row and a file. */
import { StatesError, StatesErrorName } from "../errors";
import { awsSdkCloudWatchLogsHandler } from "./aws-sdk-cloudwatchlogs";
import { awsSdkDynamodbHandler } from "./aws-sdk-dynamodb";
import { dynamodbHandler, type DynamoDbAction } from "./dynamodb";
import { lambdaArnHandler, lambdaInvokeHandler } from "./lambda";
import { sqsSendMessageHandler } from "./sqs";
import type { IntegrationRoute, TaskHandler } from "./types";

const INTEGRATIONS: readonly IntegrationRoute[] = [
  { pattern: /^arn:aws[a-z-]*:states:::dynamodb:(getItem|putItem|updateItem|deleteItem)$/, create: (m) => dynamodbHandler(m[1] as DynamoDbAction) },
  { pattern: /^arn:aws[a-z-]*:states:::aws-sdk:dynamodb:([a-z][A-Za-z]*)$/, create: (m) => awsSdkDynamodbHandler(m[1]) },
  { pattern: /^arn:aws[a-z-]*:states:::lambda:invoke$/, create: () => lambdaInvokeHandler() },
  { pattern: /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]+(:[A-Za-z0-9_$-]+)?$/, create: (m) => lambdaArnHandler(m[0]) },
  { pattern: /^arn:aws[a-z-]*:states:::sqs:sendMessage$/, create: () => sqsSendMessageHandler() },
  { pattern: /^arn:aws[a-z-]*:states:::aws-sdk:cloudwatchlogs:(putLogEvents)$/, create: (m) => awsSdkCloudWatchLogsHandler(m[1]) },
];

/** Finds the handler for a resource, or undefined. */
export function findIntegration(resource: string): TaskHandler | undefined {
  for (const route of INTEGRATIONS) {
    const m = route.pattern.exec(resource);
    if (m) return route.create(m);
  }
  return undefined;
}

/** The run-time failure of a Task whose resource no integration serves. */
export function unsupportedResource(resource: string): StatesError {
  return new StatesError(
    StatesErrorName.Runtime,
    `The resource '${resource}' is not supported by the local Step Functions interpreter. Supported: ` +
      "arn:aws:states:::dynamodb:getItem|putItem|updateItem|deleteItem, arn:aws:states:::aws-sdk:dynamodb:<action>, " +
      "arn:aws:states:::lambda:invoke, Lambda function ARNs, arn:aws:states:::sqs:sendMessage, arn:aws:states:::aws-sdk:cloudwatchlogs:putLogEvents.",
  );
}
