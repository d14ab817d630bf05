import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { createPipeRunner } from "../../src/pipes";
import type { PipeRunner, TargetResult } from "../../src/pipes";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { useLocalSqs } from "../support/local-sqs";
import { waitFor } from "@effectively-once/testing";

/**
 * The pipe runner on a FIFO queue of the local SQS (AWS's FIFO delivery, packages/local-cloud/test/parity/sqs-fifo.replay.test.ts):
 * one batch in flight per message group (a receive returns nothing of a group while an earlier message of it is in
 * flight), a retried record back before the rest of its group, and no later record of a group sent on after one to
 * retry, also when a batch needs several executions (AWS: Lambda's SQS poller "attempts all retries on the affected
 * messages before Lambda receives additional messages from the same group").
 */
const sqs = useLocalSqs("pipe-fifo");
let runner: PipeRunner | undefined;

afterEach(async () => {
  await runner?.stop({ gracePeriodMs: 1000 });
  runner = undefined;
});

const fifoQueue = () => sqs.newQueue({ FifoQueue: "true", VisibilityTimeout: "30" });

const sendTo = (url: string) => async (body: string, group: string) =>
  (await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: `${group}-${body.slice(0, 40)}` }))).MessageId as string;

function startPipe(queue: { url: string; arn: string }, target: (records: SqsRecord[]) => Promise<TargetResult>, extra = {}): void {
  runner = createPipeRunner({
    name: "fifo-pipe",
    sqs: sqs.client,
    queueUrl: queue.url,
    queueArn: queue.arn,
    region: "us-east-1",
    batchSize: 10,
    maximumBatchingWindowInSeconds: 0,
    invocationType: "REQUEST_RESPONSE",
    target: (input) => target(input as SqsRecord[]),
    retryVisibilityTimeoutSeconds: 0,
    ...extra,
  });
  runner.start();
}

const failing = (ids: readonly string[]): TargetResult => ({ status: "SUCCEEDED", output: JSON.stringify({ batchItemFailures: ids.map((itemIdentifier) => ({ itemIdentifier })) }) });
const bodiesOf = (records: readonly SqsRecord[]) => records.map((r) => r.body.slice(0, 3));

describe("Pipe runner on a FIFO queue", () => {
  it("never has two batches of one message group in flight, and brings a retried record back before the rest of its group", async () => {
    const queue = await fifoQueue();
    const send = sendTo(queue.url);
    for (const body of ["g-1", "g-2", "g-3"]) await send(body, "g");
    const batches: string[][] = [];
    let inFlight: string[] = [];
    let overlapped = false;
    let failedOnce = false;
    startPipe(
      queue,
      async (records) => {
        const groups = records.map((r) => r.attributes.MessageGroupId);
        if (groups.some((g) => inFlight.includes(g))) overlapped = true;
        inFlight = [...inFlight, ...groups];
        batches.push(bodiesOf(records));
        await new Promise((resolve) => setTimeout(resolve, 30));
        inFlight = inFlight.filter((g) => !groups.includes(g));
        const g2 = records.find((r) => r.body === "g-2");
        if (g2 && !failedOnce) {
          failedOnce = true;
          return failing(records.filter((r) => r.body >= "g-2").map((r) => r.messageId));
        }
        return { status: "SUCCEEDED" };
      },
      { concurrency: 3, batchSize: 2 },
    );
    await waitFor(() => batches.flat().filter((b) => b === "g-3").length >= 1 && runner!.stats().recordsAcknowledged >= 3, { message: "the group was worked through" });
    expect(overlapped).toBe(false);
    // g-2 failed (g-3 came back with it, untried); the next batch of the group starts again at g-2.
    expect(batches).toEqual([["g-1", "g-2"], ["g-2", "g-3"]]);
  });

  it("sends no later record of a group after one to retry, when one batch needs two executions", async () => {
    const queue = await fifoQueue();
    const send = sendTo(queue.url);
    // Four 100 KB records of group g and one of group h: the batch goes out in executions of two.
    const ids = [await send("g-1".padEnd(100_000, "x"), "g"), await send("g-2".padEnd(100_000, "x"), "g"), await send("g-3".padEnd(100_000, "x"), "g"), await send("h-1".padEnd(100_000, "x"), "h")];
    const executions: string[][] = [];
    startPipe(queue, async (records) => {
      executions.push(bodiesOf(records));
      // The first time g-2 arrives it fails.
      return executions.length === 1 ? failing(records.filter((r) => r.body.startsWith("g-2")).map((r) => r.messageId)) : { status: "SUCCEEDED" };
    });
    await waitFor(() => runner!.stats().recordsAcknowledged >= 4, { message: "every record settled" });
    // g-3 was in the second execution's part of the batch: held back with g-2, h-1 went on; then g-2, g-3 again.
    expect(executions.slice(0, 2)).toEqual([["g-1", "g-2"], ["h-1"]]);
    expect(executions.slice(2).flat()).toEqual(["g-2", "g-3"]);
    expect(ids).toHaveLength(4);
  });
});
