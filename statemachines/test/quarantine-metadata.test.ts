/**
 * A producer may set any message attribute, including ones named like the pipeline's own metadata. The quarantine
 * writes its metadata itself (reason, ids, key, detail) and bounds `firstSentTimestamp` by SQS's SentTimestamp, so a
 * forged value can make a message look older, never younger; the producer's own attributes travel packed in
 * `producerAttributes`, names like `__proto__` included, so a redrive can restore them.
 */
import { sqsRecord, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

type Sent = ReadonlyMap<string, string>;
const SENT_AT = "1764547200000";

describe("pipeline.asl.json: metadata a producer can forge", () => {
  let pipeline: PipelineMachine;
  /** Each DLQ send's attributes, name → string value. */
  const sent = (): Sent[] => pipeline.quarantined.map((input) => new Map(Object.entries(input.MessageAttributes ?? {}).map(([name, v]) => [name, String(v.StringValue)])));

  beforeAll(async () => {
    pipeline = await startPipelineMachine(async () => ({ StatusCode: 200, Payload: "{}" }));
  });
  afterAll(() => pipeline.stop());
  beforeEach(() => { pipeline.quarantined.length = 0; });

  const attribute = (stringValue: string, dataType = "String") => ({ stringValue, stringListValues: [], binaryListValues: [], dataType });
  const record = (messageId: string, body: string, messageAttributes: Record<string, unknown>) =>
    sqsRecord(messageId, body, { attributes: { ApproximateReceiveCount: "1", SentTimestamp: SENT_AT }, messageAttributes });

  it("never carries a forged first send younger than SQS's SentTimestamp, nor a forged reason, key or id", async () => {
    const forged = { firstSentTimestamp: attribute("9999999999999", "Number"), reason: attribute("rejected"), businessKey: attribute('["x","y"]'), originalMessageId: attribute("someone-else") };
    const run = await pipeline.machine.execute([record("m1", "not json", forged)]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    const [dlq] = sent();
    expect(dlq.get("firstSentTimestamp")).toBe(SENT_AT);
    expect(dlq.get("reason")).toBe("invalid-message");
    expect(dlq.get("originalMessageId")).toBe("m1");
    expect(dlq.has("businessKey")).toBe(false);
  });

  it("keeps an older first send (a redriven copy's): only a later one is bounded", async () => {
    await pipeline.machine.execute([record("m2", "not json", { firstSentTimestamp: attribute("1764000000000", "Number") })]);
    expect(sent()[0].get("firstSentTimestamp")).toBe("1764000000000");
  });

  it("packs the producer's attributes, names the runtime treats specially included, as the pipe delivered them", async () => {
    const own = JSON.parse('{"__proto__":{"stringValue":"p","stringListValues":[],"binaryListValues":[],"dataType":"String"},"type":{"stringValue":"order","stringListValues":[],"binaryListValues":[],"dataType":"String"},"hasOwnProperty":{"stringValue":"h","stringListValues":[],"binaryListValues":[],"dataType":"String"}}');
    await pipeline.machine.execute([record("m3", "not json", own), record("m4", "not json", own)]);
    expect(sent()).toHaveLength(2);
    for (const dlq of sent()) {
      const packed = JSON.parse(String(dlq.get("producerAttributes")));
      expect(Object.keys(packed)).toEqual(["__proto__", "type", "hasOwnProperty"]);
      expect(Object.getOwnPropertyDescriptor(packed, "__proto__")?.value.stringValue).toBe("p");
    }
  });

  it("adds no producerAttributes for a message without attributes", async () => {
    await pipeline.machine.execute([record("m5", "not json", {})]);
    expect([...sent()[0].keys()].sort()).toEqual(["detail", "firstSentTimestamp", "originalMessageId", "reason"]);
  });
});
