/**
 * One alarm's state on the local clock, as CloudWatch's "Evaluating an alarm" describes it:
 *
 * - every minute, the alarm reads the last `evaluation_periods` whole periods (its evaluation range) of its metric or
 *   of the expression that returns data;
 * - each period is breaching, not breaching or missing; `treat_missing_data` decides what a missing one is:
 *   `notBreaching` (good), `breaching` (bad), `ignore` ("the current alarm state is maintained") and `missing` (the
 *   alarm goes to INSUFFICIENT_DATA when every period of the range is missing);
 * - with some periods present, ALARM needs `datapoints_to_alarm` breaching ones (M of N); OK needs a present period
 *   that does not breach, else the state stays;
 * - an alarm on a metric of `AWS/DynamoDB` always ignores missing data ("Alarms that evaluate metrics in the
 *   AWS/DynamoDB namespace always ignore missing data even if you choose a different option", PutMetricAlarm);
 * - a new alarm starts in INSUFFICIENT_DATA; each change of state runs the actions of the new state.
 *
 * Left out (alarms/README.md): CloudWatch's longer look-back when data are missing, its delays, high resolution.
 */
import type { AlarmDefinition, AlarmQuery } from "./alarm-definition";
import { evaluateMath, type Series } from "./metric-math";
import type { MetricStore } from "./metric-store";

/** CloudWatch's three alarm states. */
export type AlarmState = "OK" | "ALARM" | "INSUFFICIENT_DATA";

/** One change of an alarm's state, with CloudWatch's kind of reason and the actions it ran. */
export interface AlarmTransition {
  /** The alarm's name. */
  readonly alarm: string;
  /** The state it left. */
  readonly from: AlarmState;
  /** The state it entered. */
  readonly to: AlarmState;
  /** Epoch ms on the cloud's clock. */
  readonly at: number;
  /** Why, in the words CloudWatch uses (the datapoints and the threshold). */
  readonly reason: string;
  /** The ARNs notified (the alarm's actions for the new state). */
  readonly actions: readonly string[];
}

const compare = (d: AlarmDefinition, v: number): boolean => {
  switch (d.comparison) {
    case "GreaterThanThreshold":
      return v > d.threshold;
    case "GreaterThanOrEqualToThreshold":
      return v >= d.threshold;
    case "LessThanThreshold":
      return v < d.threshold;
    case "LessThanOrEqualToThreshold":
      return v <= d.threshold;
  }
};

/** The values of the query that returns data over `count` periods ending at `end` (oldest first). */
function alarmSeries(d: AlarmDefinition, store: MetricStore, end: number, count: number): Series {
  // One period more than asked, so that DIFF has the period before the range; it is dropped after.
  const length = count + 1;
  const start = end - length * d.period * 1000;
  const cache = new Map<string, Series>();
  const byId = new Map<string, AlarmQuery>(d.queries.map((q) => [q.id, q]));
  const seriesOf = (id: string, seen: readonly string[] = []): Series => {
    const cached = cache.get(id);
    if (cached) return cached;
    const q = byId.get(id);
    if (!q) throw new Error(`${d.address}: metric math names "${id}", which is no query of the alarm`);
    if (seen.includes(id)) throw new Error(`${d.address}: metric math ids refer to each other in a cycle (${[...seen, id].join(" → ")})`);
    const s: Series =
      "metric" in q
        ? Array.from({ length }, (_, k) => store.statistic(q.metric, q.stat, start + k * d.period * 1000, d.period))
        : evaluateMath(q.expression, (other) => seriesOf(other, [...seen, id]), length);
    cache.set(id, s);
    return s;
  };
  const returned = d.queries.find((q) => q.returnData)!;
  return seriesOf(returned.id).slice(1);
}

export class AlarmEvaluator {
  private current: AlarmState = "INSUFFICIENT_DATA";

  constructor(readonly definition: AlarmDefinition) {}

  get state(): AlarmState {
    return this.current;
  }

  /** Evaluates at `now` (epoch ms); returns the transition, if the state changed. */
  evaluate(store: MetricStore, now: number): AlarmTransition | undefined {
    const d = this.definition;
    const periodMs = d.period * 1000;
    const end = Math.floor(now / periodMs) * periodMs;
    const values = alarmSeries(d, store, end, d.evaluationPeriods);
    const dynamo = d.queries.length === 1 && "metric" in d.queries[0] && d.queries[0].metric.namespace === "AWS/DynamoDB";
    const treatment = dynamo ? "ignore" : d.treatMissingData;
    const marks = values.map((v) => (v === undefined ? (treatment === "breaching" ? "X" : treatment === "notBreaching" ? "0" : "-") : compare(d, v) ? "X" : "0"));
    const breaching = marks.filter((m) => m === "X").length;
    const present = marks.filter((m) => m !== "-").length;
    let next: AlarmState = this.current;
    if (present === 0) next = treatment === "missing" ? "INSUFFICIENT_DATA" : this.current;
    else if (breaching >= d.datapointsToAlarm) next = "ALARM";
    else if (marks.includes("0")) next = "OK";
    if (next === this.current) return undefined;
    const shown = values.map((v, k) => `${v === undefined ? "missing" : +v.toFixed(3)} (${new Date(end - (values.length - k) * periodMs).toISOString().slice(11, 16)})`);
    const reason =
      present === 0
        ? `no data in the last ${d.evaluationPeriods} period(s) of ${d.period} s (treat_missing_data ${treatment})`
        : `${breaching} out of the last ${d.evaluationPeriods} datapoints [${shown.join(", ")}] ${next === "ALARM" ? "crossed" : "did not cross"} the threshold (${d.comparison} ${d.threshold}; ${d.datapointsToAlarm} to alarm, missing data ${treatment})`;
    const transition: AlarmTransition = { alarm: d.name, from: this.current, to: next, at: now, reason, actions: next === "ALARM" ? d.alarmActions : next === "OK" ? d.okActions : d.insufficientDataActions };
    this.current = next;
    return transition;
  }
}
