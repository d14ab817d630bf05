/**
 * One invocation per batch at synth (batch-rules.ts, timing.ts, the lease rule): FIFO refuses it, its defaults hold
 * every rule, and the worst batch input and answer, built as the workflow and the function build them and serialized
 * by the stated worst case (every non-ASCII character and every control character as \u escapes), stay within the
 * bounds the rules compare with Step Functions' 256 KiB.
 */
import { resolveProps } from "../../src/constructs/resolve-props";
import { runPropRules } from "../../src/constructs/prop-rules";
import { PIPELINE_RULES } from "../../src/constructs/invariants";
import { worstExecution } from "../../src/constructs/timing";
import { definitionParams } from "../../src/constructs/definition-params";
import { functionVariables } from "../../src/constructs/function-variables";
import {
  batchRecordEnvelopeBytes,
  BatchRecordOutcome,
  failedAnswer,
  largestMaxMessageBytes,
  MAX_ANSWER_ERROR_CHARS,
  MAX_BUSINESS_KEY_BYTES,
  MAX_DETAIL_CHARS,
  RECORD_BYTES_PER_MESSAGE_BYTE,
  sourceQueueMaxBytes,
  SYNC_EXECUTION_INPUT_BYTES,
  worstBatchAnswerBytes,
  worstBatchInvocationInputBytes,
} from "@effectively-once/contract";
import { BASE_PROPS, propProblems } from "./support/prop-problems";

/** Every character outside printable ASCII as \u escapes, one UTF-16 unit at a time (limits.ts's worst case). */
const escapedEverywhere = (json: string): string => json.replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Text of exactly `bytes` UTF-8 bytes of `unit`, padded with ASCII. */
function textOf(unit: string, bytes: number): string {
  const text = unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)));
  return text + "x".repeat(bytes - Buffer.byteLength(text));
}

describe("batchInvocation at synth", () => {
  it("holds every rule with its defaults, and the definition and the function learn it", () => {
    // Arrange
    const p = resolveProps({ ...BASE_PROPS, batchInvocation: true });

    // Act
    const problems = runPropRules(PIPELINE_RULES, p).problems;

    // Assert
    expect(problems).toEqual([]);
    expect(p.executionTimeoutSeconds).toBeGreaterThanOrEqual(worstExecution(p).seconds);
    expect(worstExecution(p).batch).toEqual({ claimPhase: 45, invoke: 63, settle: 73 });
    expect(definitionParams(p, { partition: "aws", ledgerTableName: "l", functionArn: "f", deadLetterQueueUrl: "q" })).toMatchObject({ batchInvocation: true });
    expect(functionVariables(p, "idem")).toMatchObject({ PIPELINE_BATCH_CONCURRENCY: String(p.maxConcurrency) });
  });

  it("is the default in standard mode, with the batch's execution timeout", () => {
    // Arrange
    const p = resolveProps(BASE_PROPS);

    // Assert: the same as an explicit true, and 190 s holds the worst batch (183 s).
    expect(p.batchInvocation).toBe(true);
    expect(p).toEqual(resolveProps({ ...BASE_PROPS, batchInvocation: true }));
    expect(runPropRules(PIPELINE_RULES, p).problems).toEqual([]);
    expect(definitionParams(p, { partition: "aws", ledgerTableName: "l", functionArn: "f", deadLetterQueueUrl: "q" })).toMatchObject({ batchInvocation: true });
    expect(p.executionTimeoutSeconds).toBe(190);
    expect(worstExecution(p).seconds).toBe(183);
    expect(p.visibilityTimeoutSeconds).toBe(6 * 190);
  });

  it("is off with batchInvocation: false, which leaves the per-record definition, environment and timeout", () => {
    // Arrange
    const p = resolveProps({ ...BASE_PROPS, batchInvocation: false });

    // Assert
    expect(p.batchInvocation).toBe(false);
    expect(runPropRules(PIPELINE_RULES, p).problems).toEqual([]);
    expect(definitionParams(p, { partition: "aws", ledgerTableName: "l", functionArn: "f", deadLetterQueueUrl: "q" })).not.toHaveProperty("batchInvocation");
    expect(functionVariables(p, "idem")).not.toHaveProperty("PIPELINE_BATCH_CONCURRENCY");
    expect(p.executionTimeoutSeconds).toBe(120);
    expect(worstExecution(p).seconds).toBeLessThanOrEqual(120);
  });

  it("resolves to per record in FIFO mode when unset, without a refusal", () => {
    // Arrange
    const p = resolveProps({ ...BASE_PROPS, fifo: true });

    // Assert
    expect(p.batchInvocation).toBe(false);
    expect(runPropRules(PIPELINE_RULES, p).problems).toEqual([]);
    expect(definitionParams(p, { partition: "aws", ledgerTableName: "l", functionArn: "f", deadLetterQueueUrl: "q" })).not.toHaveProperty("batchInvocation");
    expect(functionVariables(p, "idem")).not.toHaveProperty("PIPELINE_BATCH_CONCURRENCY");
  });

  it("names the opt-out and its own worst case when a batch's worst case does not fit the execution", () => {
    // Act: two waves of a batch invoked once need 90 + 63 + 146 + 2 = 301 s, over EXPRESS's 300; per record 232 s.
    const problems = propProblems({ maxConcurrency: 5, executionTimeoutSeconds: 300 });

    // Assert
    expect(problems).toContainEqual(
      expect.objectContaining({ prop: "executionTimeoutSeconds", reason: expect.stringContaining("= 301 s"), fix: expect.stringContaining("or set batchInvocation: false (one invocation per record: 232 s)") }),
    );
    expect(propProblems({ batchInvocation: false, maxConcurrency: 5, executionTimeoutSeconds: 300 })).toEqual([]);
  });

  it("is refused in FIFO mode, naming the prop and the fix", () => {
    // Act
    const problems = propProblems({ fifo: true, batchInvocation: true });

    // Assert
    expect(problems).toContainEqual(expect.objectContaining({ prop: "batchInvocation", value: true, fix: expect.stringContaining("remove batchInvocation") }));
  });

  it("asks for a lease of two invocations (the batch's, then the record's own) and an execution that holds both", () => {
    // Act
    const problems = propProblems({ batchInvocation: true, executionTimeoutSeconds: 150, leaseSeconds: 59 });

    // Assert
    expect(problems).toContainEqual(expect.objectContaining({ prop: "leaseSeconds", reason: expect.stringContaining("2 × 10 × 3 = 60") }));
    expect(problems).toContainEqual(expect.objectContaining({ prop: "executionTimeoutSeconds", reason: expect.stringContaining("fate metrics 2 = 183 s") }));
    expect(propProblems({ batchInvocation: false, executionTimeoutSeconds: 150, leaseSeconds: 59 }).map((q) => q.prop)).not.toContain("leaseSeconds");
  });

  it.each([1, 2, 5, 10])("bounds the worst batch input of %i records of the largest accepted messages below 256 KiB", (batchSize) => {
    // Arrange: the largest message the byte rules accept for this batch size, in the worst scripts, a key at its limit.
    const maxMessageBytes = largestMaxMessageBytes(batchSize);
    expect(propProblems({ batchInvocation: true, batchSize, maxMessageBytes })).toEqual([]);
    const queueMax = sourceQueueMaxBytes(maxMessageBytes);
    const bound = worstBatchInvocationInputBytes(batchSize, queueMax, batchRecordEnvelopeBytes(MAX_BUSINESS_KEY_BYTES, RECORD_BYTES_PER_MESSAGE_BYTE), RECORD_BYTES_PER_MESSAGE_BYTE);

    for (const unit of ["ж", "語", "😀", '"', "\n"]) {
      const records = Array.from({ length: batchSize }, (_, i) => ({
        businessKey: JSON.stringify([textOf(unit, MAX_BUSINESS_KEY_BYTES - 8)]),
        operation: "o".repeat(64),
        messageId: `${i}`.padEnd(100, "m"),
        receiveCount: Number.MAX_SAFE_INTEGER,
        firstSentAt: Number.MAX_SAFE_INTEGER,
        body: textOf(unit, queueMax),
      }));
      const input = escapedEverywhere(JSON.stringify({ FunctionName: "a".repeat(256), Payload: { records } }));

      // Assert
      expect(Buffer.byteLength(input)).toBeLessThanOrEqual(bound);
    }
    expect(bound).toBeLessThanOrEqual(SYNC_EXECUTION_INPUT_BYTES);
  });

  it("bounds the worst answer of 10 records below 256 KiB", () => {
    // Arrange: every answer failed, its error name and detail at their bounds in control characters (6 bytes each).
    const outcomes = Array.from({ length: 10 }, (_, i) => failedAnswer(`${i}`.padEnd(100, "m"), BatchRecordOutcome.Conflict, "\u0001".repeat(MAX_ANSWER_ERROR_CHARS + 5), "\u0002".repeat(MAX_DETAIL_CHARS + 5)));

    // Act
    const bytes = Buffer.byteLength(escapedEverywhere(JSON.stringify({ outcomes })));

    // Assert
    expect(bytes).toBeLessThanOrEqual(worstBatchAnswerBytes(10));
    expect(worstBatchAnswerBytes(10)).toBeLessThanOrEqual(SYNC_EXECUTION_INPUT_BYTES);
  });
});
