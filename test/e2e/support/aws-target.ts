import { DynamoDBClient, type DynamoDBClientConfig } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient, type SQSClientConfig } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { waitFor } from "@effectively-once/testing";
import { readStackOutputs } from "./outputs-file";
import type { E2eSettings } from "./settings";
import { stackNamesFromOutputs } from "./stack-names";
import type { E2eTarget } from "./target";

/** Pacing of the observations; the defaults suit real SQS, whose approximate counts lag behind. */
export interface AwsPacing {
  /** Pause between two observations. */
  readonly pollIntervalMs: number;
  /** The queue depth must read zero this many times in a row before the queue counts as empty. */
  readonly quietReads: number;
  /** Long-poll wait of DLQ receives (a short poll on AWS samples only some servers). */
  readonly receiveWaitSeconds: number;
}

export const AWS_PACING: AwsPacing = { pollIntervalMs: 2_000, quietReads: 3, receiveWaitSeconds: 1 };

/** Extra client settings (e.g. an endpoint); credentials always come from the SDK's default chain. */
export interface AwsClientConfig {
  readonly sqs?: Omit<SQSClientConfig, "credentials">;
  readonly dynamodb?: Omit<DynamoDBClientConfig, "credentials">;
}

/**
 * A deployed stack, found through the outputs file `cdktf deploy --outputs-file` wrote. Clients use the AWS SDK's
 * default credential chain and the stack's region. No fault injection, no delivery log: only what any client of
 * the stack can see.
 */
export async function openAwsTarget(settings: E2eSettings, pacing: AwsPacing = AWS_PACING, clientConfig: AwsClientConfig = {}): Promise<E2eTarget> {
  const source = `${settings.outputsFile}${settings.stack ? ` (stack ${settings.stack})` : ""}`;
  const names = stackNamesFromOutputs(readStackOutputs(settings.outputsFile, settings.stack), source);
  const sqs = new SQSClient({ region: names.region, ...(settings.sqsEndpoint ? { endpoint: settings.sqsEndpoint } : {}), ...clientConfig.sqs });
  const dynamodb = new DynamoDBClient({ region: names.region, ...clientConfig.dynamodb });
  const documents = DynamoDBDocumentClient.from(dynamodb);
  try {
    const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: names.queueUrl, AttributeNames: ["VisibilityTimeout"] }));
    // A retried record comes back after the visibility timeout: give a scenario two rounds and a margin.
    const visibilitySeconds = Number(Attributes.VisibilityTimeout ?? 0);
    const settleTimeoutMs = settings.settleTimeoutMs ?? (2 * visibilitySeconds + 120) * 1000;
    let quietReads = 0;
    const depth = async () => {
      const { Attributes: a = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: names.queueUrl,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"],
        }),
      );
      return Number(a.ApproximateNumberOfMessages) + Number(a.ApproximateNumberOfMessagesNotVisible) + Number(a.ApproximateNumberOfMessagesDelayed);
    };
    return {
      kind: "aws",
      names,
      clients: { sqs, dynamodb, documents },
      settleTimeoutMs,
      pollIntervalMs: pacing.pollIntervalMs,
      receiveWaitSeconds: pacing.receiveWaitSeconds,
      quiesce: async (timeoutMs) => {
        quietReads = 0;
        await waitFor(async () => (quietReads = (await depth()) === 0 ? quietReads + 1 : 0) >= pacing.quietReads, {
          timeoutMs,
          intervalMs: pacing.pollIntervalMs,
          message: `source queue ${names.queueUrl} empty on ${pacing.quietReads} reads in a row`,
        });
      },
      diagnostics: () => `aws stack from ${source}; queue visibility timeout ${visibilitySeconds} s`,
      close: async () => {
        sqs.destroy();
        dynamodb.destroy();
      },
    };
  } catch (error) {
    sqs.destroy();
    dynamodb.destroy();
    throw error;
  }
}
