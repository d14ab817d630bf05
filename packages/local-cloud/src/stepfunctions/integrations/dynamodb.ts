/**
 * `arn:aws:states:::dynamodb:getItem|putItem|updateItem|deleteItem`: the DynamoDB API with low-level attribute
 * values, errors `DynamoDB.<Exception>` and results carrying SdkHttpMetadata/SdkResponseMetadata.
 */
import { DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand } from "@aws-sdk/client-dynamodb";
import type { DynamoDbSender } from "../types";
import type { StatesError } from "../errors";
import { missingClient, requireObject } from "./requests";
import { optimizedError, sdkMetadata, stripMetadata } from "./aws-errors";
import type { TaskHandler } from "./types";

/**
 * Exceptions the AWS SDK for Java v1 models for DynamoDB, by class name: Step Functions names an optimized
 * integration's error after the class (`DynamoDB.ConditionalCheckFailedException`; the base class
 * `DynamoDB.AmazonDynamoDBException` for everything unmodeled, e.g. ValidationException and ThrottlingException).
 */
const MODELED = new Set([
  "ConditionalCheckFailedException",
  "ProvisionedThroughputExceededException",
  "ResourceNotFoundException",
  "ItemCollectionSizeLimitExceededException",
  "TransactionConflictException",
  "RequestLimitExceededException",
  "InternalServerErrorException",
  "ResourceInUseException",
  "LimitExceededException",
  "ReplicatedWriteConflictException",
]);

/** Wire error codes whose Java v1 class name differs (the JS SDK v3 names its errors after the code). */
const JAVA_CLASS_OF_CODE: Readonly<Record<string, string>> = {
  InternalServerError: "InternalServerErrorException",
  RequestLimitExceeded: "RequestLimitExceededException",
};

const COMMANDS = {
  getItem: GetItemCommand,
  putItem: PutItemCommand,
  updateItem: UpdateItemCommand,
  deleteItem: DeleteItemCommand,
} as const;

export type DynamoDbAction = keyof typeof COMMANDS;

function dynamodbError(err: unknown): StatesError {
  return optimizedError(err, { prefix: "DynamoDB", service: "AmazonDynamoDBv2", modeled: MODELED, generic: "AmazonDynamoDBException", normalize: (name) => JAVA_CLASS_OF_CODE[name] ?? name });
}

export function dynamodbHandler(action: DynamoDbAction): TaskHandler {
  const Command = COMMANDS[action] as unknown as new (input: unknown) => GetItemCommand;
  return {
    resourceType: "dynamodb",
    resource: action,
    async invoke(parameters, call) {
      const client = call.integrations.dynamodb as DynamoDbSender | undefined;
      if (!client) throw missingClient(call.resourceArn, "integrations.dynamodb", "--dynamodb-endpoint or AWS_ENDPOINT_URL_DYNAMODB");
      const input = requireObject(parameters, call.resourceArn);
      let out: object;
      try {
        out = await client.send(new Command(input), { abortSignal: call.signal });
      } catch (err) {
        if (call.signal.aborted) throw err;
        throw dynamodbError(err);
      }
      const meta = (out as { $metadata?: { httpStatusCode?: number; requestId?: string } }).$metadata;
      return { ...stripMetadata(out), ...sdkMetadata(meta, "application/x-amz-json-1.0") };
    },
  };
}
