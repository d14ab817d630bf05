/** One local SQS per test file for the replay tests: queues with unique names, their ARNs, and the shared clock. */
import { CreateQueueCommand, GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { sharedClock } from "../../src/clock";
import { createSqsClient, startSqs } from "../../src/sqs";
import type { LocalSqs } from "../../src/sqs";

export interface ReplaySqs {
  readonly client: SQSClient;
  readonly endpoint: string;
  /** CreateQueue with a fresh name (or the one given); returns the queue URL. */
  createQueue(attributes?: Record<string, string>, name?: string): Promise<string>;
  arnOf(queueUrl: string): Promise<string>;
  /** Moves the local cloud's clock (and so SQS's) forward: the recordings' `time.sleep`, without waiting. */
  pass(seconds: number): void;
}

/** Starts the local SQS before the file's tests and stops it after them. */
export function useReplaySqs(): ReplaySqs {
  let sqs: LocalSqs | undefined;
  let client: SQSClient | undefined;
  let count = 0;
  beforeAll(async () => {
    sqs = await startSqs();
    client = createSqsClient(sqs.endpoint);
  });
  afterAll(async () => {
    client?.destroy();
    await sqs?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the local SQS is not running (use it inside a test)");
    return value;
  };
  return {
    get client() {
      return started(client);
    },
    get endpoint() {
      return started(sqs).endpoint;
    },
    async createQueue(attributes = {}, name) {
      count += 1;
      const { QueueUrl } = await started(client).send(new CreateQueueCommand({ QueueName: name ?? `replay-${process.pid}-${count}`, Attributes: attributes }));
      return QueueUrl as string;
    },
    async arnOf(queueUrl) {
      const { Attributes } = await started(client).send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }));
      return Attributes?.QueueArn as string;
    },
    pass(seconds) {
      sharedClock().advance(seconds);
    },
  };
}
