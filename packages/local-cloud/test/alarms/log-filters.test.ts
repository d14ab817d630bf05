/**
 * The local log metric filters against CloudWatch Logs' documented JSON filter syntax ("Filter and pattern syntax":
 * the JSON metric filter examples and compound conditions), and the synthesized `function-errors` alarm (its two
 * filters) evaluated over the lines the function writes: which of them carry `functionError` is pinned by
 * functions/test/batch-log.test.ts; and that its expression puts no value into a minute nothing was published in (no
 * `FILL`, which on CloudWatch can hide a minute whose data arrive late).
 * The whole path (the real function in a local cloud, a failed batch invocation) runs in function-errors.test.ts.
 */
import { referenceTo, resourceNamed, resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { readAlarm } from "../../src/alarms/alarm-definition";
import { AlarmEvaluator } from "../../src/alarms/evaluate";
import { logFilterCounter } from "../../src/alarms/log-filters";
import { evaluateMath } from "../../src/alarms/metric-math";
import { MetricStore } from "../../src/alarms/metric-store";

const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 5, 8, 0);

/** A filter on function `f`'s log group counting 1 per matching line into `Test/Matches`. */
const filter = (pattern: string) => ({
  address: "aws_cloudwatch_log_metric_filter.f",
  body: { log_group_name: "/aws/lambda/f", pattern, metric_transformation: [{ namespace: "Test", name: "Matches", value: "1" }] },
});

/** How many of `lines` the pattern counts. */
function count(pattern: string, lines: readonly object[]): number {
  const store = new MetricStore();
  const countLine = logFilterCounter(store, [filter(pattern)])!;
  for (const line of lines) countLine("f", JSON.stringify(line));
  return store.statistic({ namespace: "Test", metricName: "Matches", dimensions: [] }, "SampleCount", 0, Date.now() / 1000 + 3600) ?? 0;
}

/** The example event of the AWS page's JSON metric filter examples. */
const AWS_EXAMPLE = { eventType: "UpdateTrail", sourceIPAddress: "111.111.111.111", SomeObject: null, ThisFlag: true };

describe("Function: logFilterCounter", () => {
  it("matches the JSON terms as AWS documents them: string equality, IS TRUE / IS FALSE / IS NULL, NOT EXISTS, joined by &&", () => {
    const matches = (pattern: string) => count(pattern, [AWS_EXAMPLE]);
    expect(matches('{ $.eventType = "UpdateTrail" }')).toBe(1);
    expect(matches("{ $.ThisFlag IS TRUE }")).toBe(1);
    expect(matches("{ $.ThisFlag IS FALSE }")).toBe(0);
    expect(count("{ $.ThisFlag IS FALSE }", [{ ThisFlag: false }])).toBe(1);
    // "This will only be true is the specified object is set to null."
    expect(matches("{ $.SomeObject IS NULL }")).toBe(1);
    expect(matches("{ $.SomeOtherObject IS NULL }")).toBe(0);
    // "This will only be true if specified object does not exist in log data."
    expect(matches("{ $.SomeOtherObject NOT EXISTS }")).toBe(1);
    expect(matches("{ $.SomeObject NOT EXISTS }")).toBe(0);
    expect(matches('{ $.eventType = "UpdateTrail" && $.ThisFlag IS TRUE }')).toBe(1);
    expect(matches('{ $.eventType = "UpdateTrail" && $.ThisFlag IS FALSE }')).toBe(0);
    expect(matches('{ $.eventType = "UpdateTrail" && $.SomeOtherObject NOT EXISTS }')).toBe(1);
  });

  it("refuses at start-up a term it does not implement, naming it, instead of counting it wrongly", () => {
    for (const term of ['$.a = "x" || $.b = "y"', "$.a.b IS TRUE", '$.a != "x"', "$.a IS true", "$.latency > 5"]) {
      expect(() => logFilterCounter(new MetricStore(), [filter(`{ ${term} }`)])).toThrow(/is not implemented/);
    }
  });
});

describe("Alarm: function-errors over the function's lines (the synthesized filter and alarm)", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => {
    jest.useRealTimers();
    stack.cleanup();
  });

  /** The synthesized filter and alarm with the function's and its log group's names in place of their references. */
  function synthesized() {
    const json = stack.json;
    const names = new Map([
      [referenceTo(json, "aws_lambda_function", "test-charge", "function_name"), "test-charge"],
      [referenceTo(json, "aws_cloudwatch_log_group", "/aws/lambda/test-charge", "name"), "/aws/lambda/test-charge"],
    ]);
    const resolve = (body: Record<string, unknown>) => JSON.parse([...names].reduce((text, [ref, name]) => text.replaceAll(ref, name), JSON.stringify(body))) as Record<string, unknown>;
    return {
      filters: resourcesOfType(json, "aws_cloudwatch_log_metric_filter").map(([id, body]) => ({ address: `aws_cloudwatch_log_metric_filter.${id}`, body: resolve(body) })),
      alarm: readAlarm("aws_cloudwatch_metric_alarm.function_errors", resolve(resourceNamed(json, "aws_cloudwatch_metric_alarm", "test-function-errors"))),
    };
  }

  /** A rejection's WARN line as the function writes it; `threw`: a single-record invocation (not a batch's record). */
  const rejection = (messageId: string, threw: boolean) => ({
    level: "WARN",
    message: "invocation rejected: permanent error, the message will be quarantined",
    businessKey: `["t1","${messageId}"]`,
    operation: "charge",
    messageId,
    outcome: "rejected",
    function_request_id: `req-${messageId}`,
    ...(threw ? { functionError: true } : {}),
    error: { name: "DownstreamRefusedError", message: "refused" },
  });
  /** A transient failure's ERROR line; `threw`: a single-record invocation (Lambda counted it), else a batch's record. */
  const failure = (messageId: string, threw: boolean) => ({
    level: "ERROR",
    message: "invocation failed: transient error, the message will be retried",
    businessKey: `["t1","${messageId}"]`,
    operation: "charge",
    messageId,
    outcome: "failed",
    function_request_id: `req-${messageId}`,
    ...(threw ? { functionError: true } : {}),
    error: { name: "Error", message: "the downstream answered 503" },
  });
  const batchLine = (messageIds: string[]) => ({ level: "INFO", message: "invocation batch", batchRecords: messageIds.length, records: messageIds.map((messageId) => ({ messageId, outcome: "applied" })) });

  /** One minute from T0: the invocations' Errors (one value per invocation) and the lines; the state after it. */
  function minute(errors: number[], lines: object[]): string {
    jest.useFakeTimers({ now: T0 });
    const { filters, alarm } = synthesized();
    const store = new MetricStore();
    for (const value of errors) store.put({ namespace: "AWS/Lambda", metricName: "Errors", dimensions: [["FunctionName", "test-charge"]], value, at: T0 });
    const countLine = logFilterCounter(store, filters)!;
    for (const line of lines) countLine("test-charge", JSON.stringify(line));
    const evaluator = new AlarmEvaluator(alarm);
    evaluator.evaluate(store, T0 + MIN);
    jest.useRealTimers();
    return evaluator.state;
  }

  it("pages for a failed batch invocation in a minute whose other batches rejected records", () => {
    // A batch that crashed (Errors 1, no line) and a batch that answered two rejections (Errors 0, their WARN lines).
    expect(minute([1, 0], [rejection("m1", false), rejection("m2", false), batchLine(["m3"])])).toBe("ALARM");
  });

  it("stays quiet for rejections alone, single and batch: each single one is an Error its line accounts for", () => {
    // Two single-record rejections (Errors 1 each, their lines say they threw) and a batch with a rejected record.
    expect(minute([1, 1, 0], [rejection("m1", true), rejection("m2", true), rejection("m3", false), batchLine(["m4"])])).toBe("OK");
  });

  it("pages for a batch record's transient failure, which Lambda does not count: the batch answered it (retry)", () => {
    // One batch invocation (Errors 0): a record failed transiently, another was applied; beside batch rejections.
    expect(minute([0], [failure("m1", false), rejection("m2", false), batchLine(["m3"])])).toBe("ALARM");
    // Per-record mode as before: the failed invocation is an Error, its line adds nothing.
    expect(minute([1], [failure("m1", true)])).toBe("ALARM");
  });

  it("puts no value into a minute where nothing was published yet, and an idle minute is OK (treat_missing_data notBreaching)", () => {
    // CloudWatch's FILL: with metrics "published with a slight delay", FILL "replaces that missing data point with the
    // requested value. That causes the latest data point for the metric to always be the FILL value, which can result
    // in the alarm being stuck in either OK state or ALARM state" (User Guide, "Using metric math", FILL). Arithmetic
    // alone counts a missing value as 0 beside a present one, so a minute with data reads the same without FILL.
    const { alarm } = synthesized();
    const failures = alarm.queries.find((q) => q.returnData)!;
    if (!("expression" in failures)) throw new Error("function-errors returns a metric, not an expression");
    // Minute 1: an Error and a rejection Lambda counted; minute 2: a batch record's failure alone; minute 3: nothing yet.
    const published = new Map([
      ["errors", [2, undefined, undefined]],
      ["rejected", [1, undefined, undefined]],
      ["batchFailed", [undefined, 1, undefined]],
    ]);
    expect(evaluateMath(failures.expression, (id) => published.get(id)!, 3)).toEqual([1, 1, undefined]);
    // A minute where none of the three was published is missing, and notBreaching makes it OK, as a 0 was.
    expect(minute([], [])).toBe("OK");
  });

  /** What each synthesized filter counts over `lines`, by metric name. */
  const counts = (lines: object[]) =>
    synthesized().filters.map((f) => {
      const store = new MetricStore();
      const countLine = logFilterCounter(store, [f])!;
      for (const line of lines) countLine("test-charge", JSON.stringify(line));
      const name = (f.body.metric_transformation as { name: string }).name;
      return [name, store.statistic({ namespace: "EffectivelyOnce/test-charge", metricName: name, dimensions: [] }, "Sum", 0, Date.now() / 1000 + 3600) ?? 0];
    });

  it("counts each failure once: a single-record failure by Lambda's Errors, a batch record's by its line", () => {
    // Per-record mode: the failure threw (Lambda counts it), the rejection threw (subtracted).
    expect(counts([failure("m1", true), rejection("m2", true)])).toEqual(expect.arrayContaining([["BatchRecordFailures", 0], ["RejectedInvocations", 1]]));
    // Batch mode: neither threw; only the failure is counted, and the summary line's entries are no lines of their own.
    expect(counts([failure("m1", false), rejection("m2", false), batchLine(["m3"])])).toEqual(expect.arrayContaining([["BatchRecordFailures", 1], ["RejectedInvocations", 0]]));
  });

  it("counts only the wrapper's own error lines: not a success that noted outcome failed, nor the team's logger", () => {
    // A single-record invocation that succeeded while its work noted a downstream receipt's outcome (functions/README.md):
    // the wrapper writes `invocation <outcome>` at INFO, Lambda counts no error (functions/test/batch-log.test.ts).
    const notedSuccess = { level: "INFO", message: "invocation failed", outcome: "failed", businessKey: '["t1","m1"]', messageId: "m1", function_request_id: "req-m1" };
    // The team's own logger, in the same log group: a refusal it logged, and a line that claims to have thrown.
    const declined = { level: "ERROR", message: "charge declined by the bank", outcome: "failed" };
    const claimed = { level: "WARN", message: "charge refused", outcome: "rejected", functionError: true };
    expect(counts([notedSuccess, declined, claimed])).toEqual(expect.arrayContaining([["BatchRecordFailures", 0], ["RejectedInvocations", 0]]));
    // The wrapper's lines keep the messages a function built before this filter writes (the fixtures spell them out).
    expect(counts([failure("m2", false), rejection("m3", true)])).toEqual(expect.arrayContaining([["BatchRecordFailures", 1], ["RejectedInvocations", 1]]));
  });
});
