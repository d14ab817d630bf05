// The SQS conformance suite, part 2: what SQS keeps and refuses (retention by the original enqueue time, in the DLQ too;
// size and character limits; message-attribute rules; SenderId; what a native message move renews), one set of
// cases run against both the simulation's SQS model and the local SQS. Move cases run where the implementation
// has moves (the simulation's hook: `simulationMessageMove` in drivers.ts).
import { IMPLEMENTATIONS } from "./drivers";
import { bodies, counts, failure, receive, send, using } from "./helpers";

const EMOJI = "😀";

describe.each(IMPLEMENTATIONS.map((make) => [make().name, make] as const))("SQS conformance suite, limits and retention: %s", (_name, make) => {
  const sqs = using(make);

  it("a message older than the retention period is gone: visible, in flight, from receives and counts", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ retentionSeconds: 60, visibilityTimeoutSeconds: 600 });
    await send(client, queue, "held");
    await send(client, queue, "waiting");
    sqs.pass(1);
    expect(bodies(await receive(client, queue, { max: 1 }))).toHaveLength(1);
    sqs.pass(57); // the local SQS's clock also runs in real time: a margin of seconds, not milliseconds
    expect(await counts(client, queue)).toEqual({ visible: 1, inFlight: 1 });
    sqs.pass(3);
    expect(await receive(client, queue)).toEqual([]);
    expect(await counts(client, queue)).toEqual({ visible: 0, inFlight: 0 });
  });

  it("the DLQ counts retention from the ORIGINAL enqueue time, not from the move", async () => {
    const client = sqs.clientAs();
    const dlq = await sqs.createQueue({ retentionSeconds: 1_200 });
    const queue = await sqs.createQueue({ retentionSeconds: 600, deadLetter: { queue: dlq, maxReceiveCount: 1 } });
    await send(client, queue, "poison");
    sqs.pass(500);
    await receive(client, queue, { visibilityTimeout: 0 });
    expect(await receive(client, queue, { visibilityTimeout: 0 })).toEqual([]);
    sqs.pass(650);
    expect(await counts(client, dlq)).toEqual({ visible: 1, inFlight: 0 });
    sqs.pass(51);
    expect(await counts(client, dlq)).toEqual({ visible: 0, inFlight: 0 });
  });

  it("size: body + attribute names, types and values up to the queue's maximum; one byte more is InvalidParameterValue", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue({ maxMessageBytes: 1_024 });
    const attributes = { k: { DataType: "String", StringValue: "x" } };
    await send(client, queue, "a".repeat(1_024 - 8), attributes);
    const refused = await failure(send(client, queue, "a".repeat(1_024 - 7), attributes));
    expect(refused).toEqual({ name: "InvalidParameterValue", message: "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes." });
    expect(await counts(client, queue)).toEqual({ visible: 1, inFlight: 0 });
  });

  it("characters: SQS's set, emoji included; a lone surrogate or a control character is InvalidMessageContents; an empty body MissingParameter", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    await send(client, queue, `emoji ${EMOJI}\ttab`);
    expect((await failure(send(client, queue, "lone \uD800 surrogate"))).name).toBe("InvalidMessageContents");
    expect((await failure(send(client, queue, "nul \u0000"))).name).toBe("InvalidMessageContents");
    expect((await failure(send(client, queue, ""))).name).toBe("MissingParameter");
    expect(bodies(await receive(client, queue))).toEqual([`emoji ${EMOJI}\ttab`]);
  });

  it("message attributes: at most 10, valid names, non-empty values (AWS's wording); valid ones come back as sent", async () => {
    const client = sqs.clientAs();
    const queue = await sqs.createQueue();
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`a${i}`, { DataType: "String", StringValue: "v" }]));
    expect((await failure(send(client, queue, "m", eleven))).name).toBe("InvalidParameterValue");
    expect((await failure(send(client, queue, "m", { "AWS.reserved": { DataType: "String", StringValue: "v" } }))).name).toBe("InvalidParameterValue");
    expect(await failure(send(client, queue, "m", { ErrorDetails: { DataType: "String", StringValue: "" } }))).toEqual({
      name: "InvalidParameterValue",
      message: "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'.",
    });
    const attributes = { amount: { DataType: "Number", StringValue: "12.50" }, "tenant.id": { DataType: "String.custom", StringValue: `t ${EMOJI}` } };
    await send(client, queue, "ok", attributes);
    expect((await receive(client, queue))[0].MessageAttributes).toEqual(attributes);
  });

  it("SenderId is the sending identity; no message attribute can forge it", async () => {
    const queue = await sqs.createQueue();
    await send(sqs.clientAs("producer-1"), queue, "one");
    await send(sqs.clientAs("producer-2"), queue, "two", { SenderId: { DataType: "String", StringValue: "producer-1" } });
    const received = await receive(sqs.clientAs("consumer"), queue);
    expect(received.map((m) => [m.Body, m.Attributes?.SenderId]).sort()).toEqual([["one", "producer-1"], ["two", "producer-2"]]);
  });

  // Defined only where the implementation has message moves (the simulation's: `simulationMessageMove`, drivers.ts).
  const withMoves = sqs.moveMessages ? it : undefined;
  withMoves?.("a native move (StartMessageMoveTask) makes a new message: new id and enqueue time, count from 0, retention from the move", async () => {
    const client = sqs.clientAs("producer-1");
    const dlq = await sqs.createQueue({ retentionSeconds: 600 });
    const queue = await sqs.createQueue({ retentionSeconds: 600, deadLetter: { queue: dlq, maxReceiveCount: 1 } });
    const id = await send(client, queue, "poison");
    await receive(client, queue, { visibilityTimeout: 0 });
    await receive(client, queue, { visibilityTimeout: 0 });
    sqs.pass(500);
    const [original] = await receive(client, dlq, { visibilityTimeout: 0 });
    await sqs.moveMessages?.(dlq);
    sqs.pass(200);
    const [moved] = await receive(client, queue, { visibilityTimeout: 0 });
    expect(moved.Body).toBe("poison");
    expect(moved.MessageId).not.toBe(id);
    expect(Number(moved.Attributes?.SentTimestamp)).toBeGreaterThanOrEqual(Number(original.Attributes?.SentTimestamp) + 500_000);
    expect(moved.Attributes).toMatchObject({ ApproximateReceiveCount: "1", SenderId: "producer-1" });
    sqs.pass(401);
    expect(await counts(client, queue)).toEqual({ visible: 0, inFlight: 0 });
  });
});
