import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { waitFor } from "../../helpers/wait-for";
import { readStackOutputs } from "./outputs-file";
import type { E2eSettings } from "./settings";
import { stackNamesFromOutputs } from "./stack-names";
import type { E2eTarget } from "./target";

/** Queue depth must read zero this many times in a row: SQS's approximate counts lag behind. */
const QUIET_READS = 3;

/**
 * A deployed stack, found through the outputs file `cdktf deploy --outputs-file` wrote. Clients use the AWS SDK's
 * default credential chain and the stack's region (`AWS_ENDPOINT_URL_*` still apply, as they do for any SDK
 * client). No fault injection, no delivery log: only what any client of the stack can see.
 */
export async function openAwsTarget(settings: E2eSettings): Promise<E2eTarget> {
  const source = `${settings.outputsFile}${settings.stack ? ` (stack ${settings.stack})` : ""}`;
  const names = stackNamesFromOutputs(readStackOutputs(settings.outputsFile, settings.stack), source);
  const sqs = new SQSClient({ region: names.region });
  const dynamodb = new DynamoDBClient({ region: names.region });
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
      pollIntervalMs: 2_000,
      quiesce: async (timeoutMs) => {
        quietReads = 0;
        await waitFor(async () => (quietReads = (await depth()) === 0 ? quietReads + 1 : 0) >= QUIET_READS, {
          timeoutMs,
          intervalMs: 2_000,
          message: `source queue ${names.queueUrl} empty on ${QUIET_READS} reads in a row`,
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
