import { compileFilterCriteria, type SqsRecord } from "../src/pipe-filter";
import { DlqAttribute, pipeFilterPatterns, QUARANTINE_MARKERS } from "../src";

// Case (a) of docs/guarantees.md, "paths back from the DLQ": a quarantined copy that SQS moves back carries the
// quarantine's attributes and its producer's only packed in `producerAttributes`, so a stack's filter on a message
// attribute would drop it (deleted unprocessed, gone from both queues). The pipe's patterns let it through.
const text = (stringValue: string, dataType = "String") => ({ stringValue, stringListValues: [], binaryListValues: [], dataType });

function record(messageAttributes: SqsRecord["messageAttributes"]): SqsRecord {
  return { messageId: "m-1", receiptHandle: "h", body: '{"orderId":"o-1"}', attributes: { SentTimestamp: "1" }, messageAttributes, md5OfBody: "", eventSource: "aws:sqs", eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:q", awsRegion: "us-east-1" };
}

const STACK_PATTERNS = [{ messageAttributes: { type: { stringValue: ["order"] } } }];
const filterOf = (patterns: readonly Record<string, unknown>[]) => compileFilterCriteria({ Filters: patterns.map((p) => ({ Pattern: JSON.stringify(p) })) });

const QUARANTINE = [
  [DlqAttribute.Reason, text("rejected")],
  [DlqAttribute.OriginalMessageId, text("m-0")],
  [DlqAttribute.FirstSentTimestamp, text("1700000000000", "Number")],
] as const;
const movedBack = record(Object.fromEntries([...QUARANTINE, [DlqAttribute.ProducerAttributes, text('{"type":{"stringValue":"order","dataType":"String"}}')]]));

describe("Function: pipeFilterPatterns", () => {
  it("lets a quarantined copy moved back through a filter on a message attribute, which alone drops it", () => {
    expect(filterOf(STACK_PATTERNS)(movedBack)).toBe(false);
    expect(filterOf(pipeFilterPatterns(STACK_PATTERNS))(movedBack)).toBe(true);
  });

  it("still drops what the stack's patterns drop when the copy lacks any one marker", () => {
    for (const missing of QUARANTINE_MARKERS) {
      const partial = record(Object.fromEntries(QUARANTINE.filter(([name]) => name !== missing)));
      expect(filterOf(pipeFilterPatterns(STACK_PATTERNS))(partial)).toBe(false);
    }
  });

  it("keeps a stack without patterns without a filter (everything passes)", () => {
    expect(pipeFilterPatterns([])).toEqual([]);
  });
});
