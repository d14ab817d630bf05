/**
 * A rejection's line at every level function.logLevel accepts (functions/src/invocation-log.ts, rejectionLevel): the
 * function-errors alarm subtracts a single-record rejection (a Lambda error) from Errors only by its line, so that line
 * must be written at ERROR too, where a WARN line is dropped (by Powertools here; by Lambda's log-level filter on AWS).
 * A batch record's rejection is no Lambda error: its line stays WARN, and at ERROR is not written at all.
 */
import { captureOutput } from "./support/capture-output";
import { FUNCTION_NAME, depositEvent } from "./support/deposit";
import { depositHandlerFixture } from "./support/deposit-fixture";
import { lambdaContext } from "./support/lambda-context";

type LogLine = Record<string, unknown>;
const parse = (lines: string[]): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);
/** A refused amount (13: a PermanentError of the deposit function) under a new reference. */
const refusal = (ref: string) => depositEvent({ payload: { accountId: "acc-1", ref, amount: 13 } });

describe("Function: a rejection's line at POWERTOOLS_LOG_LEVEL=ERROR (function.logLevel ERROR)", () => {
  const fx = depositHandlerFixture({ idempotency: "rejection-level-idempotency", effects: "rejection-level-effects" }, { POWERTOOLS_LOG_LEVEL: "ERROR" });

  it("writes a single-record rejection's line at ERROR, with outcome rejected and functionError (what the filter subtracts)", async () => {
    // Act
    const event = refusal("r-13-error-alone");
    const { error, lines } = await captureOutput(() => fx.handler(event, lambdaContext(FUNCTION_NAME)));

    // Assert: the invocation threw (Lambda counts it in Errors) and its one line says so, at a level Lambda keeps.
    expect(error).toMatchObject({ name: "PipelineRejected" });
    expect(parse(lines)).toEqual([expect.objectContaining({ level: "ERROR", outcome: "rejected", functionError: true, messageId: event.messageId })]);
  });

  it("writes no line for a batch record's rejection (no Lambda error, nothing to subtract), and a failure's at ERROR", async () => {
    // Act
    const rejected = refusal("r-13-error-batch");
    const failed = depositEvent({ payload: { accountId: "acc-1", ref: "r-503-error-batch", amount: 503 } });
    const { error, lines } = await captureOutput(() => fx.handler({ records: [rejected, failed] }, lambdaContext(FUNCTION_NAME)));

    // Assert
    expect(error).toBeUndefined();
    expect(parse(lines)).toEqual([expect.objectContaining({ level: "ERROR", outcome: "failed", messageId: failed.messageId })]);
    expect(parse(lines)[0]).not.toHaveProperty("functionError");
  });
});

describe("Function: a rejection's line at POWERTOOLS_LOG_LEVEL=WARN", () => {
  const fx = depositHandlerFixture({ idempotency: "rejection-warn-idempotency", effects: "rejection-warn-effects" }, { POWERTOOLS_LOG_LEVEL: "WARN" });

  it("stays WARN below ERROR, single-record or batch record: a refusal is no failure", async () => {
    // Act
    const alone = refusal("r-13-warn-alone");
    const inBatch = refusal("r-13-warn-batch");
    const single = await captureOutput(() => fx.handler(alone, lambdaContext(FUNCTION_NAME)));
    const batch = await captureOutput(() => fx.handler({ records: [inBatch] }, lambdaContext(FUNCTION_NAME)));

    // Assert
    expect(parse(single.lines)).toEqual([expect.objectContaining({ level: "WARN", outcome: "rejected", functionError: true })]);
    expect(parse(batch.lines).filter((line) => line.messageId === inBatch.messageId)).toEqual([expect.objectContaining({ level: "WARN", outcome: "rejected" })]);
  });
});
