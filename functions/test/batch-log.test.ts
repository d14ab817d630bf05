/**
 * A batch invocation's log (functions/src/invocation-log.ts): one summary line names every record that ended without an
 * error (key, operation, messageId, outcome, what note() added to it), a failed record keeps its own WARN/ERROR line,
 * so every record is on exactly one line; and the summary costs fewer bytes than one line per record did.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { InvocationErrorMessage } from "@effectively-once/contract";
import { createInvocationLog } from "../src/invocation-log";
import { captureOutput } from "./support/capture-output";
import { FUNCTION_NAME, depositEnv, depositEvent, redelivery } from "./support/deposit";
import { depositHandlerFixture } from "./support/deposit-fixture";
import { lambdaContext } from "./support/lambda-context";
import { loadHandler } from "./support/load-handler";

type LogLine = Record<string, unknown>;
const parse = (lines: string[]): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);
const bytes = (lines: string[]): number => lines.reduce((sum, line) => sum + Buffer.byteLength(line, "utf8"), 0);

describe("Function: createPipelineHandler's log of a batch invocation", () => {
  const TABLES = { idempotency: "batch-log-idempotency", effects: "batch-log-effects" };
  const fx = depositHandlerFixture(TABLES, { POWERTOOLS_LOG_LEVEL: "INFO" });

  it("writes one summary line for the records that ended well, and a failed record's own WARN line: each record on exactly one line", async () => {
    // Arrange: a new key, a key the second layer answers, a refused amount.
    const seen = depositEvent();
    await captureOutput(() => fx.handler(seen, lambdaContext(FUNCTION_NAME)));
    const fresh = depositEvent();
    const again = redelivery(seen);
    const refused = depositEvent({ payload: { accountId: "acc-1", ref: "r-13", amount: 13 } });
    const context = lambdaContext(FUNCTION_NAME);

    // Act
    const { error, lines } = await captureOutput(() => fx.handler({ records: [fresh, again, refused] }, context));

    // Assert
    expect(error).toBeUndefined();
    const logs = parse(lines);
    expect(logs).toHaveLength(2);
    const summary = logs.find((line) => line.message === "invocation batch")!;
    expect(summary).toMatchObject({ level: "INFO", function_request_id: context.awsRequestId, batchRecords: 3 });
    const entries = summary.records as LogLine[];
    expect(entries).toHaveLength(2);
    expect(entries.find((e) => e.messageId === fresh.messageId)).toMatchObject({ businessKey: fresh.businessKey, operation: "deposit", outcome: "applied", depositId: expect.any(String) });
    expect(entries.find((e) => e.messageId === again.messageId)).toMatchObject({ businessKey: again.businessKey, outcome: "duplicate" });
    // The request id is said once, on the summary, not per entry.
    expect(entries.every((e) => !("function_request_id" in e))).toBe(true);
    const own = logs.find((line) => line !== summary)!;
    expect(own).toMatchObject({ level: "WARN", messageId: refused.messageId, businessKey: refused.businessKey, outcome: "rejected", function_request_id: context.awsRequestId });
    // Answered in the batch, not thrown: Lambda counts no error, and the line does not claim one.
    expect(own).not.toHaveProperty("functionError");
    // The text a search by key matches (docs/operations.md): the key's JSON under "businessKey", on the summary line.
    const summaryText = lines.find((line) => line.includes('"invocation batch"'))!;
    expect(summaryText).toContain(`"businessKey":${JSON.stringify(fresh.businessKey)}`);
    // docs/operations.md's Logs Insights expression, /\\"acme\\",\\"o-1\\"/, for this key's parts.
    const [account, ref] = JSON.parse(fresh.businessKey) as string[];
    expect(summaryText).toMatch(new RegExp(String.raw`\\"${account}\\",\\"${ref}\\"`));
  });

  it("marks as functionError only the lines of invocations that threw (what Lambda counts in Errors), never a batch's record", async () => {
    // Arrange: the same refusal (amount 13, a PermanentError) alone, and as a record of a batch.
    const alone = depositEvent({ payload: { accountId: "acc-1", ref: "r-13-alone", amount: 13 } });
    const inBatch = depositEvent({ payload: { accountId: "acc-1", ref: "r-13-batch", amount: 13 } });

    // Act
    const single = await captureOutput(() => fx.handler(alone, lambdaContext(FUNCTION_NAME)));
    const batch = await captureOutput(() => fx.handler({ records: [inBatch] }, lambdaContext(FUNCTION_NAME)));

    // Assert: the single invocation throws and its line says so; the batch answers the record and its line does not.
    expect(single.error).toMatchObject({ name: "PipelineRejected" });
    expect(parse(single.lines)).toEqual([expect.objectContaining({ level: "WARN", outcome: "rejected", messageId: alone.messageId, functionError: true })]);
    expect(batch.error).toBeUndefined();
    expect((batch.result as { outcomes: unknown[] }).outcomes).toEqual([expect.objectContaining({ messageId: inBatch.messageId, outcome: "rejected" })]);
    const own = parse(batch.lines).find((line) => line.messageId === inBatch.messageId)!;
    expect(own).toMatchObject({ level: "WARN", outcome: "rejected" });
    expect(own).not.toHaveProperty("functionError");
  });

  it("writes a batch record's transient failure as an ERROR line with outcome failed and no functionError (function-errors adds it)", async () => {
    // Arrange: a transient failure (amount 503, a plain Error) alone, and as a record of a batch.
    const alone = depositEvent({ payload: { accountId: "acc-1", ref: "r-503-alone", amount: 503 } });
    const inBatch = depositEvent({ payload: { accountId: "acc-1", ref: "r-503-batch", amount: 503 } });

    // Act
    const single = await captureOutput(() => fx.handler(alone, lambdaContext(FUNCTION_NAME)));
    const batch = await captureOutput(() => fx.handler({ records: [inBatch] }, lambdaContext(FUNCTION_NAME)));

    // Assert: thrown alone (Lambda counts it, the line says so); answered `retry` in the batch (no Lambda error, no field).
    expect(single.error).toMatchObject({ message: "the downstream answered 503" });
    expect(parse(single.lines)).toEqual([expect.objectContaining({ level: "ERROR", outcome: "failed", messageId: alone.messageId, functionError: true })]);
    expect(batch.error).toBeUndefined();
    expect((batch.result as { outcomes: unknown[] }).outcomes).toEqual([expect.objectContaining({ messageId: inBatch.messageId, outcome: "retry" })]);
    const own = parse(batch.lines).find((line) => line.messageId === inBatch.messageId)!;
    expect(own).toMatchObject({ level: "ERROR", outcome: "failed", businessKey: inBatch.businessKey });
    expect(own).not.toHaveProperty("functionError");
  });

  it("logs ten new keys in fewer bytes than ten single invocations log them (the cost model's batch figures, measured)", async () => {
    // Arrange
    const singles = Array.from({ length: 10 }, () => depositEvent({ firstSentAt: Date.now() - 60_000 }));
    const batch = Array.from({ length: 10 }, () => depositEvent({ firstSentAt: Date.now() - 60_000 }));

    // Act
    const one = await captureOutput(async () => {
      for (const event of singles) await fx.handler(event, lambdaContext(FUNCTION_NAME));
    });
    const summary = await captureOutput(() => fx.handler({ records: batch }, lambdaContext(FUNCTION_NAME)));

    // Assert: every record named, the metrics counted per record, the line less than half the bytes of ten.
    expect(one.lines).toHaveLength(10);
    expect(summary.lines).toHaveLength(1);
    const line = parse(summary.lines)[0]!;
    expect((line.records as LogLine[]).map((e) => e.messageId)).toEqual(batch.map((e) => e.messageId));
    expect(line.Applied).toEqual(Array.from({ length: 10 }, () => 1));
    expect(bytes(summary.lines)).toBeLessThan(bytes(one.lines) / 2);
    expect((summary.result as { outcomes: unknown[] }).outcomes).toHaveLength(10);
  });

  it("writes the error messages the function-errors filters match only for its own errors: work's notes cannot claim them", async () => {
    // Arrange: the invocation log on a real Powertools logger; work that notes what a downstream receipt said.
    const log = createInvocationLog(new Logger({ serviceName: "batch-log-test", logLevel: "INFO" }), () => false);
    const context = lambdaContext(FUNCTION_NAME);
    const claims = { outcome: "failed", functionError: true, message: InvocationErrorMessage.Failed };

    // Act: a single invocation that succeeds noting outcome "failed"; a batch whose record notes functionError, then fails.
    const single = await captureOutput(() => log.run({ messageId: "m-ok" }, context, async () => log.note(claims)));
    const batch = await captureOutput(() =>
      log.runBatch(context, 1, (lines) => log.run({ messageId: "m-fail" }, context, async () => { log.note(claims); throw new Error("503"); }, lines).catch(() => undefined), () => ({})),
    );

    // Assert: the note's outcome is on an INFO line whose message is not the failure's (Powertools drops a noted message)
    const succeeded = parse(single.lines).find((line) => line.messageId === "m-ok")!;
    expect(succeeded).toMatchObject({ level: "INFO", message: "invocation failed", outcome: "failed" });
    // ...and the batch record's failure line does not say it threw: only the wrapper sets functionError.
    const failed = parse(batch.lines).find((line) => line.messageId === "m-fail")!;
    expect(failed).toMatchObject({ level: "ERROR", message: InvocationErrorMessage.Failed, outcome: "failed" });
    expect(failed).not.toHaveProperty("functionError");
  });

  it("writes an error the stack added to the workflow's permanent names (PIPELINE_REJECTION_ERRORS) as a rejection, alone and in a batch", async () => {
    // Arrange: the same handler under a stack that lists DeclinedError in function.permanentErrors, and under one that does not.
    const { handler, restore } = loadHandler({ ...depositEnv(fx.db.endpoint, TABLES), POWERTOOLS_LOG_LEVEL: "INFO", PIPELINE_REJECTION_ERRORS: '["DeclinedError"]' });
    const declined = (ref: string) => depositEvent({ payload: { accountId: "acc-1", ref, amount: 402 } });
    const [alone, inBatch, unlisted] = [declined("r-402-alone"), declined("r-402-batch"), declined("r-402-unlisted")];

    // Act
    const single = await captureOutput(() => handler(alone, lambdaContext(FUNCTION_NAME)));
    const batch = await captureOutput(() => handler({ records: [inBatch] }, lambdaContext(FUNCTION_NAME)));
    const other = await captureOutput(() => fx.handler(unlisted, lambdaContext(FUNCTION_NAME)));
    restore();

    // Assert: reported under its own name (the workflow quarantines it by that name), logged as the rejection it is.
    expect(single.error).toMatchObject({ name: "DeclinedError" });
    expect(parse(single.lines)).toEqual([expect.objectContaining({ level: "WARN", message: InvocationErrorMessage.Rejected, outcome: "rejected", functionError: true })]);
    expect((batch.result as { outcomes: unknown[] }).outcomes).toEqual([expect.objectContaining({ messageId: inBatch.messageId, error: "DeclinedError" })]);
    const own = parse(batch.lines).find((line) => line.messageId === inBatch.messageId)!;
    expect(own).toMatchObject({ level: "WARN", message: InvocationErrorMessage.Rejected, outcome: "rejected" });
    expect(own).not.toHaveProperty("functionError");
    // A stack that does not name it retries it: a failure, as before.
    expect(parse(other.lines)).toEqual([expect.objectContaining({ level: "ERROR", outcome: "failed", functionError: true })]);
  });
});
