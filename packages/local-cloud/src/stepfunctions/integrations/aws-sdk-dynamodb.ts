/**
 * `arn:aws:states:::aws-sdk:dynamodb:<action>`: any DynamoDB API action (camelCase in the ARN, PascalCase
 * parameters); errors are spelled `DynamoDb.<Exception>` as AWS SDK integrations spell them.
 */
import * as ddb from "@aws-sdk/client-dynamodb";
import { StatesError, StatesErrorName } from "../errors";
import { sdkErrorParts, stripMetadata } from "./aws-errors";
import { missingClient, requireObject } from "./requests";
import type { TaskHandler } from "./types";
import type { DynamoDbSender } from "../types";

/** Exception names the DynamoDB model declares; others surface as DynamoDb.DynamoDbException. */
const MODELED = new Set(
  Object.keys(ddb)
    .filter((k) => k.endsWith("Exception") && k !== "DynamoDBServiceException")
    .concat(["RequestLimitExceeded"]),
);

function awsSdkDynamodbError(err: unknown): StatesError {
  if (err instanceof StatesError) return err;
  const p = sdkErrorParts(err);
  if (p.status === undefined) return new StatesError("DynamoDb.SdkClientException", `Unable to execute HTTP request: ${p.message}`, { cause: err });
  const error = MODELED.has(p.name) ? `DynamoDb.${p.name}` : "DynamoDb.DynamoDbException";
  return new StatesError(error, `${p.message} (Service: DynamoDb, Status Code: ${p.status}, Request ID: ${p.requestId})`, { cause: err });
}

export function awsSdkDynamodbHandler(action: string): TaskHandler {
  const commandName = `${action[0].toUpperCase()}${action.slice(1)}Command`;
  const Command = (ddb as unknown as Record<string, (new (input: unknown) => object) | undefined>)[commandName];
  return {
    resourceType: "aws-sdk:dynamodb",
    resource: action,
    async invoke(parameters, call) {
      if (!Command) {
        throw new StatesError(StatesErrorName.Runtime, `The resource '${call.resourceArn}' names no DynamoDB API action ('${commandName}' does not exist).`);
      }
      const client = call.integrations.dynamodb as DynamoDbSender | undefined;
      if (!client) throw missingClient(call.resourceArn, "integrations.dynamodb", "--dynamodb-endpoint or AWS_ENDPOINT_URL_DYNAMODB");
      const input = requireObject(parameters, call.resourceArn);
      try {
        const out = await client.send(new Command(input) as { input: object }, { abortSignal: call.signal });
        return stripMetadata(out as object);
      } catch (err) {
        if (call.signal.aborted) throw err;
        throw awsSdkDynamodbError(err);
      }
    },
  };
}
