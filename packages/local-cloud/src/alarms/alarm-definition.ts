/**
 * A synthesized `aws_cloudwatch_metric_alarm` (references resolved) as the local evaluator reads it. Every field the
 * resource may carry is either implemented or refused here by name: an alarm the local cloud cannot evaluate as
 * CloudWatch would stops the start-up instead of being judged wrongly.
 */
import { isStatistic, type MetricId, type Statistic } from "./metric-store";

export type Comparison = "GreaterThanThreshold" | "GreaterThanOrEqualToThreshold" | "LessThanThreshold" | "LessThanOrEqualToThreshold";
export type MissingData = "missing" | "ignore" | "breaching" | "notBreaching";

/** One query of an alarm: a metric with its statistic, or an expression over other queries' ids. */
export type AlarmQuery =
  | { readonly id: string; readonly metric: MetricId; readonly stat: Statistic; readonly period: number; readonly returnData: boolean }
  | { readonly id: string; readonly expression: string; readonly returnData: boolean };

/** One synthesized `aws_cloudwatch_metric_alarm`, read into the fields the local evaluation uses. */
export interface AlarmDefinition {
  /** The resource's Terraform address (`aws_cloudwatch_metric_alarm.<id>`). */
  readonly address: string;
  /** `alarm_name`. */
  readonly name: string;
  /** `alarm_description` (empty when none). */
  readonly description: string;
  /** Seconds per datapoint (`period`). */
  readonly period: number;
  /** N of "M out of N" (`evaluation_periods`). */
  readonly evaluationPeriods: number;
  /** M of "M out of N" (`datapoints_to_alarm`, else `evaluation_periods`). */
  readonly datapointsToAlarm: number;
  /** The value compared against. */
  readonly threshold: number;
  /** `comparison_operator`. */
  readonly comparison: Comparison;
  /** `treat_missing_data` (CloudWatch's default: `missing`). */
  readonly treatMissingData: MissingData;
  /** The queries, in order; a single-metric alarm is one query `m`. */
  readonly queries: readonly AlarmQuery[];
  /** ARNs notified on entering ALARM. */
  readonly alarmActions: readonly string[];
  /** ARNs notified on entering OK. */
  readonly okActions: readonly string[];
  /** ARNs notified on entering INSUFFICIENT_DATA. */
  readonly insufficientDataActions: readonly string[];
}

/** A synthesized alarm with a field or value the local evaluation does not implement (named, with its address). */
export class AlarmDefinitionError extends Error {
  constructor(address: string, message: string) {
    super(`${address}: ${message}`);
    this.name = "AlarmDefinitionError";
  }
}

/** Fields read (or, for tags and meta-arguments, harmlessly ignored). Any other field is refused. */
const KNOWN = new Set([
  "//", "alarm_name", "alarm_description", "namespace", "metric_name", "dimensions", "statistic", "extended_statistic", "period", "evaluation_periods",
  "datapoints_to_alarm", "threshold", "comparison_operator", "treat_missing_data", "alarm_actions", "ok_actions", "insufficient_data_actions",
  "actions_enabled", "metric_query", "tags", "depends_on", "lifecycle", "provider", "count", "for_each",
]);
const COMPARISONS = new Set<string>(["GreaterThanThreshold", "GreaterThanOrEqualToThreshold", "LessThanThreshold", "LessThanOrEqualToThreshold"]);
const MISSING = new Set<string>(["missing", "ignore", "breaching", "notBreaching"]);
const QUERY_KNOWN = new Set(["id", "expression", "label", "return_data", "period", "metric"]);
const METRIC_KNOWN = new Set(["namespace", "metric_name", "dimensions", "stat", "period"]);

function pairs(value: unknown): [string, string][] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null) throw new TypeError("dimensions must be a map of strings");
  return Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** Reads one synthesized alarm's body; throws {@link AlarmDefinitionError} on any field it does not implement. */
export function readAlarm(address: string, body: Record<string, unknown>): AlarmDefinition {
  const fail = (message: string): never => {
    throw new AlarmDefinitionError(address, message);
  };
  const unknown = Object.keys(body).filter((k) => !KNOWN.has(k));
  if (unknown.length) fail(`field(s) ${unknown.join(", ")} not implemented by the local alarms (packages/local-cloud/src/alarms/README.md)`);
  if (body.actions_enabled === false) fail("actions_enabled = false is not implemented (the local alarms record every action)");
  const num = (field: string, fallback?: number): number => {
    const v = body[field] ?? fallback;
    return typeof v === "number" && Number.isFinite(v) ? v : fail(`${field} must be a number, got ${JSON.stringify(v)}`);
  };
  const comparison = String(body.comparison_operator);
  if (!COMPARISONS.has(comparison)) fail(`comparison_operator ${comparison} is not implemented (anomaly detection bands are not)`);
  const treatMissingData = String(body.treat_missing_data ?? "missing");
  if (!MISSING.has(treatMissingData)) fail(`treat_missing_data ${treatMissingData} is not one of CloudWatch's four`);
  const evaluationPeriods = num("evaluation_periods");
  const queries: AlarmQuery[] = [];
  let period: number;
  if (body.metric_query !== undefined) {
    if (body.metric_name !== undefined || body.namespace !== undefined) fail("both metric_name and metric_query: CloudWatch takes one");
    if (!Array.isArray(body.metric_query) || body.metric_query.length === 0) fail("metric_query must be a non-empty list");
    const periods = new Set<number>();
    for (const raw of body.metric_query as Record<string, unknown>[]) {
      const extra = Object.keys(raw).filter((k) => !QUERY_KNOWN.has(k));
      if (extra.length) fail(`metric_query field(s) ${extra.join(", ")} not implemented`);
      const id = String(raw.id);
      const returnData = raw.return_data === true;
      if (raw.metric !== undefined) {
        const m = (Array.isArray(raw.metric) ? raw.metric[0] : raw.metric) as Record<string, unknown>;
        const mExtra = Object.keys(m).filter((k) => !METRIC_KNOWN.has(k));
        if (mExtra.length) fail(`metric_query ${id}: metric field(s) ${mExtra.join(", ")} not implemented`);
        const stat = String(m.stat);
        if (!isStatistic(stat)) fail(`metric_query ${id}: statistic ${stat} is not implemented`);
        const p = Number(m.period);
        periods.add(p);
        queries.push({ id, metric: { namespace: String(m.namespace), metricName: String(m.metric_name), dimensions: pairs(m.dimensions) }, stat: stat as Statistic, period: p, returnData });
      } else if (typeof raw.expression === "string") {
        if (raw.period !== undefined) periods.add(Number(raw.period));
        queries.push({ id, expression: raw.expression, returnData });
      } else fail(`metric_query ${id}: neither metric nor expression`);
    }
    if (queries.filter((q) => q.returnData).length !== 1) fail("metric_query must return data from exactly one entry");
    if (periods.size !== 1) fail(`metric_query periods ${[...periods].join(", ")}: the local alarms need one period`);
    period = [...periods][0];
  } else {
    const statistic = body.statistic ?? body.extended_statistic;
    if (body.statistic !== undefined && body.extended_statistic !== undefined) fail("both statistic and extended_statistic");
    if (typeof statistic !== "string" || !isStatistic(statistic)) fail(`statistic ${JSON.stringify(statistic)} is not implemented`);
    period = num("period");
    queries.push({ id: "m", metric: { namespace: String(body.namespace), metricName: String(body.metric_name), dimensions: pairs(body.dimensions) }, stat: statistic as Statistic, period, returnData: true });
  }
  if (!Number.isInteger(period) || period < 60 || period % 60 !== 0) fail(`period ${period}: the local alarms evaluate whole minutes only (no high-resolution periods)`);
  return {
    address,
    name: String(body.alarm_name),
    description: String(body.alarm_description ?? ""),
    period,
    evaluationPeriods,
    datapointsToAlarm: num("datapoints_to_alarm", evaluationPeriods),
    threshold: num("threshold"),
    comparison: comparison as Comparison,
    treatMissingData: treatMissingData as MissingData,
    queries,
    alarmActions: list(body.alarm_actions),
    okActions: list(body.ok_actions),
    insufficientDataActions: list(body.insufficient_data_actions),
  };
}
