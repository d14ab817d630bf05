import { ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { createPipeRunner } from "../../src/pipes";
import type { PipeEvent, PipeRunner, TargetResult } from "../../src/pipes";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";
import { useLocalSqs } from "../support/local-sqs";
import { waitFor } from "@effectively-once/testing";

/** The runner against the real SQS wire protocol (fauxqs in a worker thread), with the real clock. */
const sqs = useLocalSqs("pipe-src");
let runner: PipeRunner | undefined;

afterEach(async () => {
  await runner?.stop({ gracePeriodMs: 1000 });
  runner = undefined;
});

function startPipe(queue: { url: string; arn: string }, target: (input: unknown) => Promise<TargetResult>, extra = {}) {
  const events: PipeEvent[] = [];
  runner = createPipeRunner({
    name: "fauxqs-pipe",
    sqs: sqs.client,
    queueUrl: queue.url,
    queueArn: queue.arn,
    region: "us-east-1",
    batchSize: 10,
    maximumBatchingWindowInSeconds: 0,
    invocationType: "REQUEST_RESPONSE",
    target,
    // Local deviation on, so a failed record comes back at once instead of after the queue's 30 s.
    retryVisibilityTimeoutSeconds: 0,
    onEvent: (e) => events.push(e),
    ...extra,
  });
  runner.start();
  return events;
}

describe("Pipe runner on fauxqs", () => {
  it("delivers real SQS records, deletes the acknowledged ones and redelivers the failed one", async () => {
    // Arrange
    const queue = await sqs.newQueue();
    const send = (body: string, attrs?: Record<string, { DataType: string; StringValue: string }>) =>
      sqs.client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body, MessageAttributes: attrs })).then((r) => r.MessageId as string);
    const ok = await send('{"orderId":"o-1"}', { tenant: { DataType: "String", StringValue: "t-1" } });
    const flaky = await send('{"orderId":"o-2"}');
    const inputs: SqsRecord[][] = [];
    let failOnce = true;
    // Act
    startPipe(queue, async (input) => {
      inputs.push(input as SqsRecord[]);
      const ids = (input as SqsRecord[]).map((r) => r.messageId);
      if (failOnce && ids.includes(flaky)) {
        failOnce = false;
        return { status: "SUCCEEDED", output: { batchItemFailures: [{ itemIdentifier: flaky }] } };
      }
      return { status: "SUCCEEDED", output: { batchItemFailures: [] } };
    });
    await runner!.drain({ timeoutMs: 5000 });
    // Assert
    const all = inputs.flat();
    const first = all.find((r) => r.messageId === ok)!;
    expect(first).toMatchObject({
      body: '{"orderId":"o-1"}',
      eventSource: "aws:sqs",
      eventSourceARN: queue.arn,
      awsRegion: "us-east-1",
      messageAttributes: { tenant: { stringValue: "t-1", stringListValues: [], binaryListValues: [], dataType: "String" } },
    });
    expect(first.attributes).toEqual(
      expect.objectContaining({ ApproximateReceiveCount: "1", SentTimestamp: expect.any(String), SenderId: expect.any(String) }),
    );
    expect(first.attributes.ApproximateFirstReceiveTimestamp).toMatch(/^\d+$/);
    expect(first.md5OfBody).toMatch(/^[0-9a-f]{32}$/);
    const deliveriesOfFlaky = all.filter((r) => r.messageId === flaky).map((r) => r.attributes.ApproximateReceiveCount);
    expect(deliveriesOfFlaky).toEqual(["1", "2"]);
    expect(all.filter((r) => r.messageId === ok)).toHaveLength(1);
    expect(runner!.stats()).toMatchObject({ recordsAcknowledged: 2, recordsLeftForRetry: 1 });
  });

  it("leaves a message that always fails to the queue's redrive policy (DLQ after maxReceiveCount)", async () => {
    // Arrange
    const dlq = await sqs.newQueue();
    const queue = await sqs.newQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 2 }) });
    const { MessageId } = await sqs.client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: "poison" }));
    let executions = 0;
    // Act
    startPipe(queue, async () => {
      executions++;
      return { status: "FAILED", error: "States.TaskFailed" };
    });
    const moved = await waitFor(
      async () => {
        const { Messages } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, WaitTimeSeconds: 0 }));
        return Messages?.[0];
      },
      { message: "message in the DLQ", timeoutMs: 5000 },
    );
    // Assert
    expect(moved.MessageId).toBe(MessageId);
    expect(executions).toBe(2);
  });

  it("deletes the messages no filter matches", async () => {
    const queue = await sqs.newQueue();
    for (const body of ['{"type":"order"}', '{"type":"refund"}', "plain"]) {
      await sqs.client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body }));
    }
    const bodies: string[] = [];
    const events = startPipe(
      queue,
      async (input) => {
        bodies.push(...(input as SqsRecord[]).map((r) => r.body));
        return { status: "SUCCEEDED" };
      },
      { filterCriteria: { Filters: [{ Pattern: '{"body":{"type":["order"]}}' }] } },
    );
    await runner!.drain({ timeoutMs: 5000 });
    expect(bodies).toEqual(['{"type":"order"}']);
    expect(events.filter((e) => e.type === "records-filtered").reduce((n, e) => n + (e as { count: number }).count, 0)).toBe(2);
  });
});
