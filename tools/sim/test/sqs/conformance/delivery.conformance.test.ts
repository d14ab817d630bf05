// The SQS conformance suite, part 1: delivery rules the simulation's oracle relies on (visibility timeout, receive count,
// redrive after maxReceiveCount, delete and receipt-handle semantics, long polling, counts), one set of cases run
// against both the simulation's SQS model and the local SQS. Each rule is AWS's: documented (SQS API reference)
// or recorded on AWS (packages/local-cloud/test/parity replays the recordings).
import { DeleteMessageBatchCommand } from "@aws-sdk/client-sqs";
import { IMPLEMENTATIONS } from "./drivers";
import { bodies, changeVisibility, counts, failure, receive, remove, send, using } from "./helpers";

describe.each(IMPLEMENTATIONS.map((make) => [make().name, make] as const))("SQS conformance suite, delivery: %s", (_name, make) => {
  const sqs = using(make);

  it("a received message stays hidden for the visibility timeout, then comes back with a new handle", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ visibilityTimeoutSeconds: 30 });
    await send(client, queue, "m");
    const [first] = await receive(client, queue);
    sqs.pass(29);
    expect(await receive(client, queue)).toEqual([]);
    sqs.pass(2);
    const [again] = await receive(client, queue);
    expect([again?.MessageId, again?.ReceiptHandle === first.ReceiptHandle]).toEqual([first.MessageId, false]);
  });

  it("a receive's VisibilityTimeout replaces the queue's; ChangeMessageVisibility 0 makes it visible at once, a longer one extends", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ visibilityTimeoutSeconds: 30 });
    await send(client, queue, "m");
    const [held] = await receive(client, queue, { visibilityTimeout: 5 });
    sqs.pass(6);
    const [back] = await receive(client, queue);
    await changeVisibility(client, queue, back.ReceiptHandle, 0);
    const [now] = await receive(client, queue);
    await changeVisibility(client, queue, now.ReceiptHandle, 100);
    sqs.pass(60);
    expect(await receive(client, queue)).toEqual([]);
    expect([held, back, now].map((m) => m.MessageId)).toEqual([held.MessageId, held.MessageId, held.MessageId]);
  });

  it("counts receives (ApproximateReceiveCount), keeps SentTimestamp and the first receive's time", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    await send(client, queue, "m");
    const seen = [];
    for (let i = 0; i < 3; i += 1) seen.push((await receive(client, queue, { visibilityTimeout: 0 }))[0].Attributes ?? {});
    sqs.pass(1);
    expect(seen.map((a) => a.ApproximateReceiveCount)).toEqual(["1", "2", "3"]);
    expect(new Set(seen.map((a) => a.SentTimestamp)).size).toBe(1);
    expect(new Set(seen.map((a) => a.ApproximateFirstReceiveTimestamp)).size).toBe(1);
  });

  // AWS's recording (LocalStack, tests/aws/services/sqs/test_sqs.py::test_dead_letter_queue_message_attributes, validated
  // on AWS 2024-04-30): the moved message keeps its id and its MessageAttributes (same MD5OfMessageAttributes), its
  // receive count goes on, and it gains DeadLetterQueueSourceArn, the source queue's ARN.
  it("after maxReceiveCount receives, the next receive moves the message to the DLQ: same id, body, attributes, sender, SentTimestamp; count maxReceiveCount + 1; DeadLetterQueueSourceArn", async () => {
    const producer = sqs.clientAs("producer-1");
    const consumer = sqs.clientAs("consumer");
    const dlq = await sqs.createQueue({ retentionSeconds: 1_209_600 });
    const queue = await sqs.createQueue({ deadLetter: { queue: dlq, maxReceiveCount: 2 } });
    const id = await send(producer, queue, "poison", { tenant: { DataType: "String", StringValue: "t-1" } });
    const delivered = [...(await receive(consumer, queue, { visibilityTimeout: 0 })), ...(await receive(consumer, queue, { visibilityTimeout: 0 }))];
    expect(await receive(consumer, queue, { visibilityTimeout: 0 })).toEqual([]);
    const [moved] = await receive(consumer, dlq);
    expect(delivered.map((m) => m.MessageId)).toEqual([id, id]);
    expect([moved.MessageId, moved.Body, moved.MessageAttributes]).toEqual([id, "poison", { tenant: { DataType: "String", StringValue: "t-1" } }]);
    expect(moved.Attributes).toMatchObject({ SenderId: "producer-1", SentTimestamp: delivered[0].Attributes?.SentTimestamp, ApproximateReceiveCount: "3", DeadLetterQueueSourceArn: queue.arn });
    expect(moved.MD5OfMessageAttributes).toBe(delivered[0].MD5OfMessageAttributes);
  });

  it("DeleteMessage with the latest handle deletes, also after the visibility ran out", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ visibilityTimeoutSeconds: 10 });
    await send(client, queue, "m");
    const [m] = await receive(client, queue);
    sqs.pass(11);
    await remove(client, queue, m.ReceiptHandle);
    expect(await counts(client, queue)).toEqual({ visible: 0, inFlight: 0 });
  });

  it("an earlier receive's handle: DeleteMessage succeeds without deleting; ChangeMessageVisibility changes the current receive", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ visibilityTimeoutSeconds: 10 });
    await send(client, queue, "m");
    const [first] = await receive(client, queue);
    sqs.pass(11);
    const [second] = await receive(client, queue);
    await remove(client, queue, first.ReceiptHandle);
    expect(await counts(client, queue)).toEqual({ visible: 0, inFlight: 1 });
    // The stale handle makes the second consumer's message visible at once: a concurrent redelivery.
    await changeVisibility(client, queue, first.ReceiptHandle, 0);
    const [third] = await receive(client, queue);
    expect([second.MessageId, third?.MessageId]).toEqual([first.MessageId, first.MessageId]);
  });

  it("a deleted message's handle: DeleteMessage succeeds, ChangeMessageVisibility is InvalidParameterValue; a made-up handle is ReceiptHandleIsInvalid", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    await send(client, queue, "m");
    const [m] = await receive(client, queue);
    await remove(client, queue, m.ReceiptHandle);
    await remove(client, queue, m.ReceiptHandle);
    expect((await failure(changeVisibility(client, queue, m.ReceiptHandle, 5))).name).toBe("InvalidParameterValue");
    expect((await failure(remove(client, queue, "garbage"))).name).toBe("ReceiptHandleIsInvalid");
    expect((await failure(changeVisibility(client, queue, "garbage", 5))).name).toBe("ReceiptHandleIsInvalid");
  });

  it("DeleteMessageBatch answers per entry: a made-up handle fails alone", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    await send(client, queue, "m");
    const [m] = await receive(client, queue);
    const result = await client.send(new DeleteMessageBatchCommand({ QueueUrl: queue.url, Entries: [{ Id: "ok", ReceiptHandle: m.ReceiptHandle }, { Id: "bad", ReceiptHandle: "garbage" }] }));
    expect(result.Successful?.map((e) => e.Id)).toEqual(["ok"]);
    expect(result.Failed?.map((e) => [e.Id, e.Code])).toEqual([["bad", "ReceiptHandleIsInvalid"]]);
    expect(await counts(client, queue)).toEqual({ visible: 0, inFlight: 0 });
  });

  it("a long poll parked on an empty queue returns a message sent while it waits", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    const parked = receive(client, queue, { wait: 20 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await send(client, queue, "late");
    expect(bodies(await parked)).toEqual(["late"]);
  });

  it("counts visible and in-flight messages", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ visibilityTimeoutSeconds: 5 });
    for (const body of ["a", "b", "c"]) await send(client, queue, body);
    await receive(client, queue, { max: 1 });
    expect(await counts(client, queue)).toEqual({ visible: 2, inFlight: 1 });
    sqs.pass(6);
    expect(await counts(client, queue)).toEqual({ visible: 3, inFlight: 0 });
  });
});
