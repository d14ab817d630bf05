import { parseInvocationLines } from "../../src/harness";

/** The wrapper's lines as Powertools writes them (functions/src/invocation-log.ts): one per record, or a batch's summary. */
const line = (fields: Record<string, unknown>) => JSON.stringify({ level: "INFO", timestamp: "2026-12-05T14:00:00.000Z", service: "payments", ...fields });

describe("Function: parseInvocationLines", () => {
  it("reads a single invocation's line and every entry of a batch's summary line, and a failed record's own line once", () => {
    // Arrange: a batch of three (two on the summary, one failed on its own WARN line), a single invocation, noise.
    const key = (order: string) => JSON.stringify(["acme", order]);
    const lines = [
      line({ message: "invocation batch", function_request_id: "r1", batchRecords: 3, records: [
        { businessKey: key("o-1"), operation: "charge", messageId: "m1", outcome: "applied", chargeId: "ch_1" },
        { businessKey: key("o-2"), operation: "charge", messageId: "m2", outcome: "duplicate" },
      ] }),
      line({ level: "WARN", message: "invocation rejected: permanent error, the message will be quarantined", businessKey: key("o-3"), operation: "charge", messageId: "m3", outcome: "rejected", function_request_id: "r1" }),
      line({ message: "invocation applied", businessKey: key("o-4"), operation: "charge", messageId: "m4", outcome: "applied" }),
      "START RequestId: r1 Version: $LATEST",
      line({ message: "the side effect's own line", messageId: "m5" }),
    ];

    // Act
    const records = parseInvocationLines(lines);

    // Assert
    expect(records).toEqual([
      { businessKey: key("o-1"), operation: "charge", messageId: "m1", outcome: "applied" },
      { businessKey: key("o-2"), operation: "charge", messageId: "m2", outcome: "duplicate" },
      { businessKey: key("o-3"), operation: "charge", messageId: "m3", outcome: "rejected" },
      { businessKey: key("o-4"), operation: "charge", messageId: "m4", outcome: "applied" },
    ]);
  });
});
