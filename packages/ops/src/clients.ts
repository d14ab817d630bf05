import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetFunctionConfigurationCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { SFNClient } from "@aws-sdk/client-sfn";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import type { Target } from "./target";
import type { FunctionConfiguration } from "./types";
import { TargetKind } from "./target";

export interface OpsClients {
  readonly sqs: SQSClient;
  readonly dynamodb: DynamoDBDocumentClient;
  /** Step Functions (StartSyncExecution for `dlq redrive --direct`). */
  readonly sfn?: SFNClient;
  /** The same client without the document layer, for callers that speak AttributeValues (the load tools). */
  readonly dynamodbClient: DynamoDBClient;
  /** Only for a deployed stack: the local cloud has no CloudWatch. */
  readonly cloudwatch?: CloudWatchClient;
  /** Lambda's GetFunctionConfiguration (needs `lambda:GetFunctionConfiguration` on the function). */
  readonly functionConfiguration: (functionName: string) => Promise<FunctionConfiguration>;
  destroy(): void;
}

/**
 * The CLI's AWS clients. The local cloud takes any credentials; a deployed stack uses the default chain
 * (environment, profile, SSO, instance role). The SQS endpoint is always explicit for the local cloud: its queue
 * URLs name `sqs.<region>.localhost`, which need not resolve. Two attempts and short connect timeouts so an
 * unreachable endpoint fails in about a second instead of hanging.
 */
export function createOpsClients(target: Target): OpsClients {
  const common = {
    region: target.region,
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 15_000 },
    ...(target.kind === TargetKind.Local ? { credentials: LOCAL_CREDENTIALS } : {}),
  };
  const sqs = new SQSClient({ ...common, ...(target.endpoints.sqs ? { endpoint: target.endpoints.sqs } : {}) });
  const raw = new DynamoDBClient({ ...common, ...(target.endpoints.dynamodb ? { endpoint: target.endpoints.dynamodb } : {}) });
  const dynamodb = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  const cloudwatch = target.kind === TargetKind.Deployed ? new CloudWatchClient(common) : undefined;
  const lambda = new LambdaClient({ ...common, ...(target.endpoints.lambda ? { endpoint: target.endpoints.lambda } : {}) });

  // A sync execution runs up to the EXPRESS machine's timeout (at most 5 minutes), so its answer may take that long.
  // StartSyncExecution's host prefix (`sync-`) cannot resolve in front of the local cloud's 127.0.0.1.
  const local = target.kind === TargetKind.Local ? { disableHostPrefix: true } : {};
  const sfn = new SFNClient({ ...common, ...local, requestHandler: { connectionTimeout: 2_000, requestTimeout: 310_000 }, ...(target.endpoints.stepfunctions ? { endpoint: target.endpoints.stepfunctions } : {}) });
  return {
    sqs,
    dynamodb,
    sfn,
    dynamodbClient: raw,
    ...(cloudwatch ? { cloudwatch } : {}),
    functionConfiguration: lambdaFunctionConfiguration(lambda),
    destroy: () => {
      sqs.destroy();
      raw.destroy();
      cloudwatch?.destroy();
      lambda.destroy();
      sfn.destroy();
    },
  };
}

/** What ops reads of a function through Lambda's GetFunctionConfiguration: its name and environment variables. */
export function lambdaFunctionConfiguration(lambda: LambdaClient): (functionName: string) => Promise<FunctionConfiguration> {
  return async (functionName) => {
    const answer = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }));
    return { ...(answer.FunctionName ? { functionName: answer.FunctionName } : {}), ...(answer.Environment?.Variables ? { variables: answer.Environment.Variables } : {}) };
  };
}
