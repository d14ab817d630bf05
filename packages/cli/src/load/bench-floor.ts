import { ClaimStatus, LedgerCondition } from "@effectively-once/contract";
import { CreateTableCommand, DeleteTableCommand, PutItemCommand, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, DeleteMessageBatchCommand, DeleteQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { waitForTableActive } from "@effectively-once/local-cloud/harness";

/** The storage floor: what the emulators do alone, with the same SDK clients, on the same servers. */
export interface FloorResult {
  /** Conditional PutItem (the ledger's claim), ops/s, one call at a time. */
  readonly dynamoPutSequential: number;
  /** The same at `concurrency` calls in flight. */
  readonly dynamoPutConcurrent: number;
  readonly concurrency: number;
  /** SendMessageBatch of 10, messages/s. */
  readonly sqsSend: number;
  /** ReceiveMessage of 10 + DeleteMessageBatch, messages/s. */
  readonly sqsReceiveDelete: number;
}

export interface FloorOptions {
  readonly dynamodb: DynamoDBClient;
  readonly sqs: SQSClient;
  /** Seconds per measurement. */
  readonly seconds: number;
  readonly concurrency: number;
  /** Prefix of the bench table and queue, so they never clash with the stack's. */
  readonly prefix?: string;
}

/**
 * Runs `op` from `workers` loops until the deadline (or until `op` reports 0 done: nothing left); returns
 * completed operations per second over the time actually spent.
 */
async function rate(workers: number, seconds: number, op: () => Promise<number>): Promise<number> {
  let done = 0;
  let exhausted = false;
  const started = Date.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < deadline && !exhausted) {
        const n = await op();
        if (n === 0) exhausted = true;
        done += n;
      }
    }),
  );
  return (done / Math.max(1, Date.now() - started)) * 1000;
}

/** A fresh table with the ledger's key schema, and the claim's conditional PutItem on new keys. */
async function floorTable(options: FloorOptions): Promise<{ put: () => Promise<number>; drop: () => Promise<void> }> {
  const { dynamodb } = options;
  const TableName = `${options.prefix ?? "bench"}-floor`;
  await dynamodb.send(
    new CreateTableCommand({
      TableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "sk", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
    }),
  );
  await waitForTableActive(dynamodb, TableName);
  let next = 0;
  // The claim's shape: a new key, the ledger's condition and attributes.
  const put = async () => {
    const now = Math.floor(Date.now() / 1000);
    await dynamodb.send(
      new PutItemCommand({
        TableName,
        Item: {
          pk: { S: `acme#order-${next++}` },
          sk: { S: "charge" },
          status: { S: ClaimStatus.InProgress },
          owner: { S: "message-id" },
          leaseExpiresAt: { N: String(now + 5) },
          expiresAt: { N: String(now + 604800) },
        },
        ConditionExpression: LedgerCondition.Claim,
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":now": { N: String(now) }, ":inProgress": { S: ClaimStatus.InProgress } },
      }),
    );
    return 1;
  };
  for (let i = 0; i < 100; i++) await put(); // warm-up: connections and JIT
  const drop = async () => {
    await dynamodb.send(new DeleteTableCommand({ TableName })).catch(() => undefined);
  };
  return { put, drop };
}

/** Conditional PutItem ops/s on a fresh table, sequentially and at `concurrency`. */
async function dynamoFloor(options: FloorOptions): Promise<Pick<FloorResult, "dynamoPutSequential" | "dynamoPutConcurrent">> {
  const table = await floorTable({ ...options, prefix: `${options.prefix ?? "bench"}-full` });
  try {
    const dynamoPutSequential = await rate(1, options.seconds, table.put);
    const dynamoPutConcurrent = await rate(options.concurrency, options.seconds, table.put);
    return { dynamoPutSequential, dynamoPutConcurrent };
  } finally {
    await table.drop();
  }
}

/**
 * The ratio's denominator, sampled again and again between pipeline samples: conditional PutItem ops/s at
 * `concurrency` on one table kept for all samples (created and warmed once).
 */
export interface FloorSampler {
  /** One sample of `seconds`: ops/s at the configured concurrency. */
  sample(): Promise<number>;
  stop(): Promise<void>;
}

export async function startFloorSampler(options: FloorOptions): Promise<FloorSampler> {
  const table = await floorTable(options);
  return {
    sample: () => rate(options.concurrency, options.seconds, table.put),
    stop: table.drop,
  };
}

/** SQS messages/s: batches of 10 sent, then received and deleted, from a few loops at once. */
async function sqsFloor(options: FloorOptions): Promise<Pick<FloorResult, "sqsSend" | "sqsReceiveDelete">> {
  const { sqs } = options;
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `${options.prefix ?? "bench"}-floor` }));
  const body = JSON.stringify({ tenantId: "acme", orderId: "order-0000001", amount: 1250, currency: "EUR" });
  const send = async () => {
    await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: body })) }));
    return 10;
  };
  const receiveDelete = async () => {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    if (Messages.length === 0) return 0;
    await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
    return Messages.length;
  };
  try {
    for (let i = 0; i < 20; i++) await send(); // warm-up
    const loops = Math.min(4, options.concurrency);
    const sqsSend = await rate(loops, options.seconds, send);
    // Receives until the queue is empty (the send phase filled it) or the time is up.
    const sqsReceiveDelete = await rate(loops, options.seconds, receiveDelete);
    return { sqsSend, sqsReceiveDelete };
  } finally {
    await sqs.send(new DeleteQueueCommand({ QueueUrl })).catch(() => undefined);
  }
}

/** Measures the floor on the running emulators (the same ones the pipeline uses). */
export async function measureFloor(options: FloorOptions): Promise<FloorResult> {
  const dynamo = await dynamoFloor(options);
  const sqs = await sqsFloor(options);
  return { ...dynamo, concurrency: options.concurrency, ...sqs };
}
