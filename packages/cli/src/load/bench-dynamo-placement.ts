/**
 * Does dynalite go faster in its own worker thread or in the caller's event loop?
 * Measures conditional PutItem (the ledger's claim) sent from the main thread with the AWS SDK v3, at
 * concurrency 1 and 32, for each placement, and prints ops/s side by side.
 *
 *   npx tsx packages/cli/src/load/bench-dynamo-placement.ts [--seconds 3] [--rounds 3]
 */
import { parseArgs } from "node:util";
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "@effectively-once/contract";
import { startDynamo } from "@effectively-once/local-cloud/emulators";
import { DynamoPlacement, waitForTableActive } from "@effectively-once/local-cloud/harness";

interface Result {
  placement: DynamoPlacement;
  concurrency: number;
  opsPerSecond: number;
}

async function measure(placement: DynamoPlacement, concurrency: number, seconds: number): Promise<Result> {
  const dynamo = await startDynamo({ placement });
  const client = new DynamoDBClient({
    endpoint: dynamo.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  try {
    await client.send(
      new CreateTableCommand({
        TableName: "bench",
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      }),
    );
    await waitForTableActive(client, "bench");
    let next = 0;
    const put = () =>
      client.send(
        new PutItemCommand({
          TableName: "bench",
          Item: { pk: { S: `k${next++}` }, status: { S: "IN_PROGRESS" }, expiresAt: { N: "4102444800" } },
          ConditionExpression: "attribute_not_exists(pk) OR expiresAt < :now",
          ExpressionAttributeValues: { ":now": { N: String(Math.floor(Date.now() / 1000)) } },
        }),
      );
    for (let i = 0; i < 50; i++) await put(); // warm-up: connections, JIT
    let done = 0;
    const deadline = Date.now() + seconds * 1000;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (Date.now() < deadline) {
          await put();
          done += 1;
        }
      }),
    );
    return { placement, concurrency, opsPerSecond: done / ((Date.now() - started) / 1000) };
  } finally {
    client.destroy();
    await dynamo.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { seconds: { type: "string", default: "3" }, rounds: { type: "string", default: "3" } },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const samples = new Map<string, number[]>();
  // Rounds alternate placements so drift (other load on the machine) hits both alike; the median counts.
  for (let round = 1; round <= rounds; round++) {
    for (const concurrency of [1, 32]) {
      for (const placement of [DynamoPlacement.InProcess, DynamoPlacement.Worker]) {
        const result = await measure(placement, concurrency, seconds);
        const key = `${placement}@${concurrency}`;
        samples.set(key, [...(samples.get(key) ?? []), result.opsPerSecond]);
        process.stdout.write(`round ${round} ${key.padEnd(16)} ${result.opsPerSecond.toFixed(0)} ops/s\n`);
      }
    }
  }
  process.stdout.write(`\nconditional PutItem from the main thread (AWS SDK v3), median of ${rounds} rounds, ops/s\n`);
  process.stdout.write(`${"concurrency".padEnd(12)}${"in-process".padStart(12)}${"worker".padStart(12)}${"worker/in".padStart(12)}\n`);
  for (const concurrency of [1, 32]) {
    const inProcess = median(samples.get(`in-process@${concurrency}`) ?? []);
    const worker = median(samples.get(`worker@${concurrency}`) ?? []);
    process.stdout.write(
      `${String(concurrency).padEnd(12)}${inProcess.toFixed(0).padStart(12)}${worker.toFixed(0).padStart(12)}${(worker / inProcess).toFixed(2).padStart(12)}\n`,
    );
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
