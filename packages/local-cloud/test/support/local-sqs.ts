/** One local SQS per test file: started before its tests and stopped after them, queues with fresh names, the shared clock. */
import { CreateQueueCommand, GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { sharedClock } from "../../src/clock";
import { createSqsClient, startSqs } from "../../src/sqs";
import type { LocalSqs } from "../../src/sqs";

export interface TestQueue {
  readonly url: string;
  readonly arn: string;
  readonly name: string;
}

export interface TestSqs {
  readonly client: SQSClient;
  readonly endpoint: string;
  readonly port: number;
  /** CreateQueue with a fresh name (`<prefix>-<n>`, ending `.fifo` when `FifoQueue` is "true") or the one given. */
  newQueue(attributes?: Record<string, string>, name?: string): Promise<TestQueue>;
  /** The same, returning the queue URL only. */
  createQueue(attributes?: Record<string, string>, name?: string): Promise<string>;
  arnOf(queueUrl: string): Promise<string>;
  /** Moves the local cloud's clock (and so SQS's) forward: the recordings' `time.sleep`, without waiting. */
  pass(seconds: number): void;
}

/** Starts the local SQS before the file's tests and stops it after them (after every `afterEach`, so runners stop first). */
export function useLocalSqs(prefix = "q"): TestSqs {
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
  const arnOf = async (queueUrl: string) => {
    const { Attributes } = await started(client).send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["QueueArn"] }));
    return Attributes?.QueueArn as string;
  };
  const create = async (attributes: Record<string, string> = {}, given?: string) => {
    count += 1;
    const name = given ?? `${prefix}-${count}${attributes.FifoQueue === "true" ? ".fifo" : ""}`;
    const { QueueUrl } = await started(client).send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    return { url: QueueUrl as string, name };
  };
  return {
    get client() {
      return started(client);
    },
    get endpoint() {
      return started(sqs).endpoint;
    },
    get port() {
      return started(sqs).port;
    },
    async newQueue(attributes, name) {
      const created = await create(attributes, name);
      return { ...created, arn: await arnOf(created.url) };
    },
    async createQueue(attributes, name) {
      return (await create(attributes, name)).url;
    },
    arnOf,
    pass(seconds) {
      sharedClock().advance(seconds);
    },
  };
}
