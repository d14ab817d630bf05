/** The local evaluator against CloudWatch's documented rules, one rule per case, on a hand-fed metric store. */
import { readAlarm } from "../../src/alarms/alarm-definition";
import { AlarmEvaluator } from "../../src/alarms/evaluate";
import { evaluateMath } from "../../src/alarms/metric-math";
import { MetricStore } from "../../src/alarms/metric-store";

const MIN = 60_000;
const T0 = Date.UTC(2026, 11, 5, 8, 0);
const DIMS: [string, string][] = [["QueueName", "p-dlq"]];

function alarm(overrides: Record<string, unknown> = {}) {
  return readAlarm("aws_cloudwatch_metric_alarm.a", {
    alarm_name: "p-a",
    namespace: "AWS/SQS",
    metric_name: "ApproximateNumberOfMessagesVisible",
    dimensions: { QueueName: "p-dlq" },
    statistic: "Maximum",
    period: 60,
    evaluation_periods: 1,
    threshold: 0,
    comparison_operator: "GreaterThanThreshold",
    treat_missing_data: "notBreaching",
    alarm_actions: ["arn:topic"],
    ...overrides,
  });
}

/** Feeds `values` (undefined: no datapoint) one per minute from T0 and evaluates after each minute; returns the states. */
function run(overrides: Record<string, unknown>, values: (number | undefined)[], namespace = "AWS/SQS"): string[] {
  const store = new MetricStore();
  const e = new AlarmEvaluator(alarm({ namespace, ...overrides }));
  return values.map((v, k) => {
    if (v !== undefined) store.put({ namespace, metricName: "ApproximateNumberOfMessagesVisible", dimensions: DIMS, value: v, at: T0 + k * MIN });
    e.evaluate(store, T0 + (k + 1) * MIN);
    return e.state;
  });
}

describe("Class: AlarmEvaluator", () => {
  it("treats missing data as the alarm says: notBreaching → OK, breaching → ALARM, ignore → the state stays, missing → INSUFFICIENT_DATA", () => {
    const gone = [1, undefined, undefined];
    expect(run({ treat_missing_data: "notBreaching" }, gone)).toEqual(["ALARM", "OK", "OK"]);
    expect(run({ treat_missing_data: "breaching" }, [0, undefined])).toEqual(["OK", "ALARM"]);
    expect(run({ treat_missing_data: "ignore" }, gone)).toEqual(["ALARM", "ALARM", "ALARM"]);
    expect(run({ treat_missing_data: "missing" }, gone)).toEqual(["ALARM", "INSUFFICIENT_DATA", "INSUFFICIENT_DATA"]);
  });

  it("ignores missing data on AWS/DynamoDB metrics whatever the alarm says", () => {
    expect(run({ treat_missing_data: "notBreaching" }, [1, undefined], "AWS/DynamoDB")).toEqual(["ALARM", "ALARM"]);
  });

  it("needs datapoints_to_alarm breaching periods of the last evaluation_periods (M of N)", () => {
    expect(run({ evaluation_periods: 3, datapoints_to_alarm: 2 }, [1, 0, 1, 0, 0])).toEqual(["OK", "OK", "ALARM", "OK", "OK"]);
  });

  it("records the new state's actions and CloudWatch's kind of reason", () => {
    const store = new MetricStore();
    const e = new AlarmEvaluator(alarm());
    store.put({ namespace: "AWS/SQS", metricName: "ApproximateNumberOfMessagesVisible", dimensions: DIMS, value: 3, at: T0 });
    expect(e.evaluate(store, T0 + MIN)).toMatchObject({ from: "INSUFFICIENT_DATA", to: "ALARM", actions: ["arn:topic"], reason: "1 out of the last 1 datapoints [3 (08:00)] crossed the threshold (GreaterThanThreshold 0; 1 to alarm, missing data notBreaching)" });
  });

  it("refuses what it does not implement, by field", () => {
    expect(() => alarm({ threshold_metric_id: "ad1" })).toThrow("field(s) threshold_metric_id not implemented");
    expect(() => alarm({ period: 10 })).toThrow("period 10: the local alarms evaluate whole minutes only");
    expect(() => alarm({ comparison_operator: "LessThanLowerOrGreaterThanUpperThreshold" })).toThrow("comparison_operator LessThanLowerOrGreaterThanUpperThreshold is not implemented");
  });
});

describe("Function: evaluateMath", () => {
  const series = new Map([
    ["a", [1, undefined, 3, 5]],
    ["b", [2, 2, undefined, 1]],
  ]);
  const lookup = (id: string) => series.get(id)!;
  it("computes per period, and fills, diffs and reduces as CloudWatch's functions do", () => {
    expect(evaluateMath("a - FILL(b, 0)", lookup, 4)).toEqual([-1, -2, 3, 4]);
    expect(evaluateMath("MAX([a, DIFF(b)])", lookup, 4)).toEqual([1, 0, 3, 5]);
    expect(evaluateMath("FILL(SUM([a, b]), 0)", lookup, 4)).toEqual([3, 2, 3, 6]);
  });
  it("counts a series' missing value as 0 beside another series' value, as CloudWatch's arithmetic does; beside a number it stays missing", () => {
    // "Missing values in a time series are treated as 0. If the value of a data point causes a function to attempt to
    // divide by zero, the data point is dropped." (CloudWatch User Guide, metric math, basic arithmetic functions)
    expect(evaluateMath("a + b", lookup, 4)).toEqual([3, 2, 3, 6]);
    expect(evaluateMath("a / b", lookup, 4)).toEqual([0.5, 0, undefined, 5]);
    expect(evaluateMath("a - c", (id) => (id === "c" ? [undefined, undefined, 1, undefined] : lookup(id)), 4)).toEqual([1, undefined, 2, 5]);
    expect(evaluateMath("a * 2", lookup, 4)).toEqual([2, undefined, 6, 10]);
    expect(evaluateMath("-a", lookup, 4)).toEqual([-1, undefined, -3, -5]);
  });
  it("refuses a function it does not implement, naming the ones it does", () => {
    expect(() => evaluateMath("ANOMALY_DETECTION_BAND(a)", lookup, 4)).toThrow("function ANOMALY_DETECTION_BAND is not implemented by the local alarms (implemented: FILL, DIFF, SUM, MAX, MIN)");
  });
});
