/**
 * Cases (b)–(d) of docs/guarantees.md, "paths back from the DLQ": a quarantined copy that SQS moves back (a
 * message-move task from a queue the DLQ's own redrive policy filled) carries the quarantine's attributes, and a new
 * enqueue time (a move task; a FIFO move too). The workflow recognises it by those attributes and counts its age from
 * the recorded first send: older than the source queue's retention, its key's memory may have ended, so it is
 * quarantined again (`moved-back-too-late`), never applied; younger, it is processed as any message.
 */
import { DlqAttribute, QuarantineReason } from "@effectively-once/contract";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { sqsRecord, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

const DAY_MS = 86_400_000;
const RETENTION_DAYS = PIPELINE_TEST_PARAMS.messageRetentionSeconds / 86_400;
const attribute = (stringValue: string, dataType = "String") => ({ stringValue, stringListValues: [], binaryListValues: [], dataType });

/** A copy moved back just now (new SentTimestamp) whose quarantine recorded a first send `ageDays` ago. */
function movedBack(messageId: string, body: string, ageDays: number, extra: Record<string, string> = {}) {
  const now = Date.now();
  return sqsRecord(messageId, body, {
    attributes: { ApproximateReceiveCount: "1", SentTimestamp: String(now), ...extra },
    messageAttributes: {
      [DlqAttribute.Reason]: attribute("rejected"),
      [DlqAttribute.OriginalMessageId]: attribute("m-0"),
      [DlqAttribute.FirstSentTimestamp]: attribute(String(now - ageDays * DAY_MS), "Number"),
      [DlqAttribute.ProducerAttributes]: attribute('{"type":{"stringValue":"order","dataType":"String"}}'),
    },
  });
}

describe.each([
  ["standard", {}],
  ["FIFO", { fifo: { maxReceiveCount: 5 } }],
] as const)("pipeline.asl.json (%s): a quarantined copy moved back by SQS", (_mode, params) => {
  let pipeline: PipelineMachine;
  const invoked: string[] = [];
  const fifo: Record<string, string> = "fifo" in params ? { MessageGroupId: "g-1" } : {};

  beforeAll(async () => {
    pipeline = await startPipelineMachine(async (req) => {
      invoked.push(JSON.parse(req.Payload).businessKey);
      return { StatusCode: 200, Payload: "{}" };
    }, params);
  });
  afterAll(() => pipeline.stop());
  beforeEach(() => {
    pipeline.quarantined.length = 0;
    invoked.length = 0;
  });

  it("older than the source queue's retention: quarantined again as moved-back-too-late, never applied, its first send kept", async () => {
    // Arrange: first sent a day past the retention, moved back now (the move gave it a new SentTimestamp).
    const copy = movedBack("m-late", '{"tenantId":"t","orderId":"late","amount":5,"currency":"EUR"}', RETENTION_DAYS + 1, fifo);
    // Act
    const run = await pipeline.machine.execute([copy]);
    // Assert
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(invoked).toEqual([]);
    const [sent] = pipeline.quarantined;
    expect(sent.MessageAttributes?.[DlqAttribute.Reason]?.StringValue).toBe(QuarantineReason.MovedBackTooLate);
    expect(sent.MessageAttributes?.[DlqAttribute.FirstSentTimestamp]?.StringValue).toBe((copy.messageAttributes as Record<string, { stringValue: string }>)[DlqAttribute.FirstSentTimestamp].stringValue);
    expect(sent.MessageAttributes?.[DlqAttribute.Detail]?.StringValue).toMatch(/first sent \d+ s ago, more than the source queue retention \(345600 s\)/);
  });

  it("within the source queue's retention: processed as any message", async () => {
    const run = await pipeline.machine.execute([movedBack("m-young", '{"tenantId":"t","orderId":"young","amount":5,"currency":"EUR"}', RETENTION_DAYS - 1, fifo)]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(invoked).toEqual(['["t","young"]']);
    expect(pipeline.quarantined).toEqual([]);
  });

  it("a producer's message carrying only some of the markers is not a copy: processed by its own SentTimestamp", async () => {
    const copy = movedBack("m-partial", '{"tenantId":"t","orderId":"partial","amount":5,"currency":"EUR"}', RETENTION_DAYS + 1, fifo);
    const { [DlqAttribute.OriginalMessageId]: _dropped, ...rest } = copy.messageAttributes;
    const run = await pipeline.machine.execute([{ ...copy, messageAttributes: rest }]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(invoked).toEqual(['["t","partial"]']);
  });
});
