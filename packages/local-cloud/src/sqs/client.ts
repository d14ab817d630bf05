import { SQSClient } from "@aws-sdk/client-sqs";
import type { SQSClientConfig } from "@aws-sdk/client-sqs";

import { LOCAL_CREDENTIALS, LOCAL_REGION } from "@effectively-once/contract";


/**
 * An SQS client for the local emulator. The explicit endpoint matters: fauxqs returns queue URLs on
 * `sqs.<region>.localhost`, which does not resolve on every machine; with an endpoint set the SDK sends
 * every call there and only uses the URL as the queue's identity.
 */
export function createSqsClient(endpoint: string, overrides: Partial<SQSClientConfig> = {}): SQSClient {
  return new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, ...overrides });
}
