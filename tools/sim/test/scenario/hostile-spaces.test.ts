import fc from "fast-check";
import { ReceiveMessageCommand, SendMessageCommand, type Message } from "@aws-sdk/client-sqs";
import { scenarioArbitrary } from "../../src/scenario/generator";
import { NAUGHTY_STRINGS, PROTOTYPE_NAMES } from "../../src/scenario/hostile-text";
import { runScenario } from "../../src/run";
import { FaultKind, Fate, type Scenario } from "../../src/scenario/shape";
import { SIM_NAMES, simSettings } from "../../src/settings";
import { SimSqs } from "../../src/sqs/service";
import { attributeProblem, md5OfAttributes } from "../../src/sqs/attributes";
import { VirtualClock } from "../../src/clock/virtual-clock";
import { toSqsRecord } from "@effectively-once/contract/pipe-filter";

describe("Generator: special texts and the producer's attributes", () => {
  const scenarios = fc.sample(scenarioArbitrary(), { numRuns: 1500, seed: 22 });
  const sends = scenarios.flatMap((s) => s.ops.flatMap((o) => (o.op === "send" ? [o] : [])));
  // Each distinct body parsed once (a resend's object is its first send's: the assertions ask whether some object
  // holds a text); a parsed body 20,000 arrays deep held once per send cost a second of garbage collection.
  const objects = [...new Set(sends.map((o) => o.body))].flatMap((body) => {
    try {
      const v = JSON.parse(body) as unknown;
      return v !== null && typeof v === "object" && !Array.isArray(v) ? [v as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });

  it("draws whole bodies that are prototype names, corpus texts and no JSON at all", () => {
    const bodies = new Set(sends.map((o) => o.body));
    expect(bodies).toContain("__proto__");
    expect(bodies).toContain("hasOwnProperty");
    expect(PROTOTYPE_NAMES.filter((n) => bodies.has(n)).length).toBeGreaterThan(8);
    expect(NAUGHTY_STRINGS.filter((n) => n.length > 3 && bodies.has(n)).length).toBeGreaterThan(50);
  });

  it("puts special texts in key parts, payload values, extra field names and values", () => {
    const special = new Set([...PROTOTYPE_NAMES, ...NAUGHTY_STRINGS.filter((s) => s.length > 3)]);
    expect(objects.some((o) => special.has(o.tenantId as string) || special.has(o.orderId as string))).toBe(true);
    expect(objects.some((o) => special.has(o.currency as string))).toBe(true);
    expect(objects.some((o) => special.has(o.amount as string))).toBe(true);
    expect(objects.some((o) => Object.keys(o).some((k) => PROTOTYPE_NAMES.includes(k)))).toBe(true);
    expect(objects.some((o) => Object.hasOwn(o, "__proto__"))).toBe(true);
    expect(objects.some((o) => Object.entries(o).some(([k, v]) => k === "note" && special.has(v as string)))).toBe(true);
  });

  it("sends attributes named like the pipeline's own with forged values, and some SQS refuses", () => {
    const attributes = sends.flatMap((o) => o.attributes ?? []);
    for (const name of ["reason", "businessKey", "originalMessageId", "firstSentTimestamp", "detail", "__proto__", "SenderId"]) {
      expect(attributes.map((a) => a.name)).toContain(name);
    }
    expect(attributes).toContainEqual({ name: "firstSentTimestamp", dataType: "Number", value: "9999999999999" });
    expect(attributes).toContainEqual({ name: "reason", dataType: "String", value: "rejected" });
    expect(sends.some((o) => o.attributes && attributeProblem(o.attributes) !== undefined)).toBe(true);
    expect(sends.filter((o) => o.attributes && attributeProblem(o.attributes) === undefined).length).toBeGreaterThan(sends.length / 5);
  });
});

describe("Simulated SQS: attributes and senders as AWS keeps them", () => {
  const send = (input: object) => new SendMessageCommand(input as never);
  const receive = (url: string) => new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 });

  function queue(): SimSqs {
    const sqs = new SimSqs(new VirtualClock(0));
    sqs.addQueue({ url: "q", arn: "arn:q", visibilityTimeoutSeconds: 30, retentionSeconds: 3600, maxMessageBytes: 262_144 });
    return sqs;
  }

  it("hands attributes, their MD5 and the sender's SenderId to the pipe's record; `__proto__` stays an attribute", async () => {
    const sqs = queue();
    const attributes = Object.fromEntries([
      ["__proto__", { DataType: "String", StringValue: "x" }],
      ["firstSentTimestamp", { DataType: "Number", StringValue: "9999999999999" }],
    ]);
    await sqs.clientAs("AROAPRODUCER:p").send(send({ QueueUrl: "q", MessageBody: "b", MessageAttributes: attributes }));
    const { Messages } = (await sqs.clientAs("AROAPIPE:pipe").send(receive("q"))) as { Messages: Message[] };
    const record = toSqsRecord(Messages[0], "arn:q", "us-east-1");
    expect(record.attributes.SenderId).toBe("AROAPRODUCER:p");
    expect(record.md5OfMessageAttributes).toBe(md5OfAttributes(attributes));
    expect(Object.keys(record.messageAttributes)).toEqual(["__proto__", "firstSentTimestamp"]);
    expect(record.messageAttributes.firstSentTimestamp).toEqual({ stringValue: "9999999999999", stringListValues: [], binaryListValues: [], dataType: "Number" });
    expect(Object.getPrototypeOf(record.messageAttributes)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(record)).messageAttributes.__proto__).toMatchObject({ stringValue: "x" });
  });

  it("refuses what SQS refuses, whoever sends it", async () => {
    const sqs = queue();
    const client = sqs.clientAs("AROAPRODUCER:p");
    await expect(client.send(send({ QueueUrl: "q", MessageBody: "b", MessageAttributes: { "AWS.x": { DataType: "String", StringValue: "x" } } }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
    await expect(client.send(send({ QueueUrl: "q", MessageBody: "b", MessageAttributes: { n: { DataType: "Number", StringValue: "soon" } } }))).rejects.toMatchObject({ name: "InvalidParameterValue" });
    expect(sqs.messages("q")).toHaveLength(0);
  });

  it("the MD5 of attributes does not depend on their order", () => {
    const a = { x: { DataType: "String", StringValue: "1" }, y: { DataType: "Number", StringValue: "2" } };
    expect(md5OfAttributes(a)).toBe(md5OfAttributes({ y: a.y, x: a.x }));
    expect(md5OfAttributes(a)).not.toBe(md5OfAttributes({ x: a.x, y: { DataType: "Number", StringValue: "3" } }));
  });
});

describe("Simulation: a producer's attributes never steer the simulation's own bookkeeping", () => {
  const settings = simSettings();
  const pay = JSON.stringify({ tenantId: "t", orderId: "o", amount: 10, currency: "EUR" });

  it("a queue-moved message forging the quarantine's attributes is still its own, retries-exhausted", async () => {
    const scenario: Scenario = {
      seed: 0,
      pollers: 1,
      faults: [{ message: 1, kind: FaultKind.FnThrottle, receives: [1, 2, 3, 4, 5] }],
      ops: [
        { op: "send", body: JSON.stringify({ tenantId: "t", orderId: "p", amount: 10, currency: "EUR" }) },
        { op: "send", body: pay, attributes: [{ name: "originalMessageId", dataType: "String", value: "m1" }, { name: "reason", dataType: "String", value: "invalid-message" }] },
      ],
    };
    const obs = await runScenario(settings, scenario);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.RetriesExhausted]);
  });

  it("a redriven quarantine copy is traced to its message through the state machine's own send (its SenderId)", async () => {
    const obs = await runScenario(settings, { seed: 0, pollers: 1, faults: [], ops: [{ op: "send", body: "{}" }, { op: "advance", ms: 60_000 }, { op: "redrive" }] });
    expect(obs.redrives).toEqual([expect.objectContaining({ message: 0, givenReason: "invalid-message", named: 0 })]);
    expect(SIM_NAMES.senders.producer).not.toBe(SIM_NAMES.senders.stateMachine);
  });
});
