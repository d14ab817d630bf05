/**
 * One alarm as data: what it reads, when it fires, what it means and the command to run first. The specs are built
 * by alarm-specs-queues.ts and alarm-specs-compute.ts and turned into `aws_cloudwatch_metric_alarm` by alarms.ts;
 * docs/operations.md explains each one (a test holds the page to the ids).
 */
import type { AlarmId } from "./resource-names";

/** One CloudWatch metric and the statistic an alarm reads of it. */
export interface MetricStat {
  readonly namespace: string;
  readonly metricName: string;
  /** Every dimension the metric is published with (a metric with fewer dimensions is another metric). */
  readonly dimensions: Record<string, string>;
  readonly stat: "Sum" | "Maximum";
}

/** One entry of a metric-math alarm: a metric (never returned) or an expression over the ids before it. */
export type AlarmQuery =
  | { readonly id: string; readonly metric: MetricStat }
  | { readonly id: string; readonly expression: string; readonly label: string; readonly returnData: boolean };

/** How loud: `page` for a person soon, `critical` when data is about to be lost. */
export type Severity = "page" | "critical";

export interface AlarmSpec {
  readonly id: AlarmId;
  readonly severity: Severity;
  /** What it means, then the `pipeline-ops` command to run first: the alarm's description. */
  readonly meaning: string;
  readonly firstCommand: string;
  /** One metric, or the queries of a metric-math alarm (exactly one returns data). */
  readonly metric: MetricStat | readonly AlarmQuery[];
  readonly period: number;
  readonly evaluationPeriods: number;
  readonly datapointsToAlarm: number;
  readonly threshold: number;
  readonly comparison: "GreaterThanThreshold" | "GreaterThanOrEqualToThreshold";
  /** CloudWatch's four treatments; alarms.ts writes each explicitly (the API's default is `missing`). */
  readonly treatMissingData: "missing" | "ignore" | "breaching" | "notBreaching";
  /** Notify on the return to OK too (false where OK follows every firing within a minute, e.g. arrivals). */
  readonly okActions: boolean;
}

/** The description CloudWatch stores (at most 1,024 characters): severity, meaning, first command. */
export function alarmDescription(spec: AlarmSpec): string {
  const text = `${spec.severity === "critical" ? "CRITICAL: " : ""}${spec.meaning} First: ${spec.firstCommand} (docs/operations.md#${spec.id}).`;
  if (text.length > 1024) throw new Error(`alarm ${spec.id}: description of ${text.length} characters, CloudWatch stores at most 1,024`);
  return text;
}

/** The operator CLI, as the published package names it. */
export const OPS = "pipeline-ops";
