/**
 * The probes' AWS clients. On AWS: the SDK's default credential chain and endpoints, unless the SDK's own variables
 * (`AWS_ENDPOINT_URL_<SERVICE>`, then `AWS_ENDPOINT_URL`) name others; on the local cloud: its endpoints and any
 * credentials. An explicit endpoint is passed as such: the SQS client would otherwise follow a queue URL's host
 * (an emulator's may not resolve), and Step Functions' `sync-` host prefix (TestState, StartSyncExecution) is
 * switched off, since a prefixed `sync-127.0.0.1` does not resolve.
 */
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { CloudWatchLogsClient } from "@aws-sdk/client-cloudwatch-logs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SFNClient } from "@aws-sdk/client-sfn";
import { SQSClient } from "@aws-sdk/client-sqs";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import type { ProbeClients } from "./types";

/** Each service's endpoint; undefined = AWS's own for the region. */
export interface ProbeEndpoints {
  readonly sqs?: string;
  readonly dynamodb?: string;
  readonly stepfunctions?: string;
  readonly logs?: string;
  readonly cloudwatch?: string;
}

/** The SDK's variables, read as the SDK reads them (AWS_IGNORE_CONFIGURED_ENDPOINT_URLS switches them off). */
export function endpointsFromEnv(env: NodeJS.ProcessEnv): ProbeEndpoints {
  if (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === "true") return {};
  const of = (service: string) => env[`AWS_ENDPOINT_URL_${service}`] || env.AWS_ENDPOINT_URL || undefined;
  return { sqs: of("SQS"), dynamodb: of("DYNAMODB"), stepfunctions: of("SFN"), logs: of("CLOUDWATCH_LOGS"), cloudwatch: of("CLOUDWATCH") };
}

export function probeClients(region: string, endpoints: ProbeEndpoints, local: boolean): ProbeClients & { destroy(): void } {
  const common = { region, maxAttempts: 3, ...(local ? { credentials: LOCAL_CREDENTIALS } : {}) };
  const at = (endpoint: string | undefined) => (endpoint ? { endpoint } : {});
  const sqs = new SQSClient({ ...common, ...at(endpoints.sqs) });
  const dynamodb = new DynamoDBClient({ ...common, ...at(endpoints.dynamodb) });
  const sfn = new SFNClient({ ...common, ...at(endpoints.stepfunctions), ...(endpoints.stepfunctions ? { disableHostPrefix: true } : {}) });
  const logs = new CloudWatchLogsClient({ ...common, ...at(endpoints.logs) });
  const cloudwatch = new CloudWatchClient({ ...common, ...at(endpoints.cloudwatch) });
  return {
    sqs,
    dynamodb,
    sfn,
    logs,
    cloudwatch,
    destroy: () => [sqs, dynamodb, sfn, logs, cloudwatch].forEach((c) => c.destroy()),
  };
}
