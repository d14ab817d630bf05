// The SQS contract, part 3: FIFO queues, as the simulation's oracle relies on them (one group's messages in order,
// never a later one while an earlier one is in flight, deduplication within SQS's 5 minutes, a FIFO DLQ's retention
// counted from the move), one set of cases against the simulation's SQS model and the local SQS. Each rule is AWS's:
// the SQS Developer Guide's FIFO pages, or recorded on AWS (packages/local-cloud/test/parity/sqs-fifo.replay.test.ts).
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import type { ConformanceQueue } from "./drivers";
import { IMPLEMENTATIONS } from "./drivers";
import { failure, receive, remove, using, type Client } from "./helpers";

const sendFifo = async (client: Client, queue: ConformanceQueue, body: string, group: string, deduplicationId?: string) =>
  (await client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: body, MessageGroupId: group, MessageDeduplicationId: deduplicationId }))).MessageId as string;

describe.each(IMPLEMENTATIONS.map((make) => [make().name, make] as const))("SQS contract, FIFO: %s", (_name, make) => {
  const sqs = using(make);

  it("returns a group's messages in send order in one receive, and no later one while an earlier one is in flight", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ fifo: {}, visibilityTimeoutSeconds: 30 });
    for (const [body, group] of [["a1", "a"], ["b1", "b"], ["a2", "a"], ["a3", "a"]]) await sendFifo(client, queue, body, group, body);
    const first = await receive(client, queue, { max: 2 });
    expect(first.map((m) => [m.Body, m.Attributes?.MessageGroupId])).toEqual([["a1", "a"], ["a2", "a"]]);
    // a3 waits behind a1 and a2; b is another group.
    expect((await receive(client, queue)).map((m) => m.Body)).toEqual(["b1"]);
    await remove(client, queue, first[0].ReceiptHandle);
    expect(await receive(client, queue)).toEqual([]);
    sqs.pass(31);
    // a2's (and b1's) visibility ran out: a2 comes back before a3. (Across groups SQS promises no order.)
    const back = await receive(client, queue);
    expect(back.filter((m) => m.Attributes?.MessageGroupId === "a").map((m) => m.Body)).toEqual(["a2", "a3"]);
    expect(back.map((m) => m.Body).sort()).toEqual(["a2", "a3", "b1"]);
  });

  it("accepts a repeated deduplication id within 5 minutes and never delivers it, even after the first was deleted; after 5 minutes it is a new message", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ fifo: {} });
    await sendFifo(client, queue, "first", "g", "d1");
    const [got] = await receive(client, queue);
    await remove(client, queue, got.ReceiptHandle);
    sqs.pass(200);
    expect(await sendFifo(client, queue, "again", "g", "d1")).toEqual(expect.any(String));
    expect(await receive(client, queue)).toEqual([]);
    sqs.pass(101);
    await sendFifo(client, queue, "later", "g", "d1");
    expect((await receive(client, queue)).map((m) => m.Body)).toEqual(["later"]);
  });

  it("derives the id from the body under content-based deduplication; an explicit id overrides it", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ fifo: { contentBasedDeduplication: true } });
    await sendFifo(client, queue, "same", "g");
    await sendFifo(client, queue, "same", "h");
    await sendFifo(client, queue, "same", "g", "own-id");
    expect((await receive(client, queue)).map((m) => [m.Body, m.Attributes?.MessageGroupId]).sort()).toEqual([["same", "g"], ["same", "g"]]);
  });

  it("keeps deduplication ids per group with DeduplicationScope messageGroup", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ fifo: { deduplicationScope: "messageGroup" } });
    await sendFifo(client, queue, "in g", "g", "d");
    await sendFifo(client, queue, "in h", "h", "d");
    await sendFifo(client, queue, "in g again", "g", "d");
    expect((await receive(client, queue)).map((m) => m.Body).sort()).toEqual(["in g", "in h"]);
  });

  it("moves a group to a FIFO DLQ in its order, and counts a moved message's retention from the move", async () => {
    const client = sqs.clientAs();
    const dlq = await sqs.createQueue({ fifo: {}, retentionSeconds: 86_400 });
    const queue = await sqs.createQueue({ fifo: {}, visibilityTimeoutSeconds: 30, retentionSeconds: 345_600, deadLetter: { queue: dlq, maxReceiveCount: 1 } });
    await sendFifo(client, queue, "m1", "g", "1");
    await sendFifo(client, queue, "m2", "g", "2");
    expect(await receive(client, queue)).toHaveLength(2);
    sqs.pass(2 * 86_400);
    expect(await receive(client, queue)).toEqual([]);
    sqs.pass(86_400 - 60);
    const moved = await receive(client, dlq, { visibilityTimeout: 0 });
    expect(moved.map((m) => m.Body)).toEqual(["m1", "m2"]);
    sqs.pass(120);
    expect(await receive(client, dlq)).toEqual([]);
  });

  it("refuses a send without a group id, or without a deduplication id on a queue that derives none", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ fifo: {} });
    expect(await failure(client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: "x", MessageDeduplicationId: "d" })))).toMatchObject({ name: "MissingParameter" });
    expect(await failure(client.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: "x", MessageGroupId: "g" })))).toMatchObject({
      name: "InvalidParameterValue",
      message: "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly",
    });
  });
});
