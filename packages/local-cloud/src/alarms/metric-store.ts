/**
 * The local cloud's metrics: what CloudWatch stores, as datapoints on the cloud's clock, and the one query the alarms
 * need (a statistic per period). Small on purpose, so that any part of the local cloud (or a test) can publish:
 *
 * @example
 * store.put({ namespace: "AWS/Lambda", metricName: "Errors", dimensions: [["FunctionName", "payments-charge"]], value: 1, at: Date.now() });
 * store.statistic({ namespace: "AWS/Lambda", metricName: "Errors", dimensions: [["FunctionName", "payments-charge"]] }, "Sum", start, 60);
 *
 * A metric is its namespace, its name and every dimension it carries, as on CloudWatch: a datapoint published with
 * `TableName` and `Operation` is not found by a query that names `TableName` alone. Dimensions are pairs, never a
 * plain object's keys (their names are outside text).
 */

/** One metric: namespace, name and every dimension, as `[name, value]` pairs in any order. */
export interface MetricId {
  /** e.g. `AWS/SQS`. */
  readonly namespace: string;
  /** e.g. `ApproximateNumberOfMessagesVisible`. */
  readonly metricName: string;
  /** Every dimension the metric is published with; a query must name all of them. */
  readonly dimensions: readonly (readonly [string, string])[];
}

/** One published value at one time (epoch ms on the cloud's clock). */
export interface Datapoint extends MetricId {
  /** The value published (a count, a duration, a gauge sample). */
  readonly value: number;
  /** When, in epoch ms on the cloud's clock. */
  readonly at: number;
}

/** The statistics the local alarms compute (CloudWatch's names); percentiles as `p<N>`. */
export type Statistic = "Sum" | "Maximum" | "Minimum" | "Average" | "SampleCount" | `p${number}`;

const STATISTICS = new Set(["Sum", "Maximum", "Minimum", "Average", "SampleCount"]);

export function isStatistic(text: string): text is Statistic {
  return STATISTICS.has(text) || /^p(\d{1,2}(\.\d+)?|100)$/.test(text);
}

/** The canonical key of a metric: JSON of its parts with the dimensions sorted by name. */
function metricKey(m: MetricId): string {
  const dims = [...m.dimensions].map(([n, v]) => [n, v]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([m.namespace, m.metricName, dims]);
}

/** The index of the first point at or after `at` in a time-ordered list (binary search). */
function firstAtOrAfter(list: readonly { at: number }[], at: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].at < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The datapoints published so far, by metric, and the statistic per period the alarms read (see the module's TSDoc). */
export class MetricStore {
  private readonly series = new Map<string, { at: number; value: number }[]>();

  /** Records one value (a count, a duration, a gauge sample), as PutMetricData does. */
  put(point: Datapoint): void {
    if (!Number.isFinite(point.value)) throw new RangeError(`metric ${point.namespace} ${point.metricName}: value ${point.value} is not a finite number`);
    const key = metricKey(point);
    const list = this.series.get(key) ?? this.series.set(key, []).get(key)!;
    // Kept in time order (a value may arrive a little late, e.g. a duration stamped with its start).
    list.splice(firstAtOrAfter(list, point.at + 1), 0, { at: point.at, value: point.value });
  }

  /** Every value of the metric in [start, start + periodSeconds), or none. */
  values(metric: MetricId, start: number, periodSeconds: number): number[] {
    const list = this.series.get(metricKey(metric)) ?? [];
    const end = start + periodSeconds * 1000;
    const values: number[] = [];
    for (let i = firstAtOrAfter(list, start); i < list.length && list[i].at < end; i++) values.push(list[i].value);
    return values;
  }

  /** The statistic over one period starting at `start`; undefined when the metric has no value there (missing). */
  statistic(metric: MetricId, stat: Statistic, start: number, periodSeconds: number): number | undefined {
    const values = this.values(metric, start, periodSeconds);
    if (values.length === 0) return undefined;
    switch (stat) {
      case "Sum":
        return values.reduce((a, b) => a + b, 0);
      case "Maximum":
        return Math.max(...values);
      case "Minimum":
        return Math.min(...values);
      case "Average":
        return values.reduce((a, b) => a + b, 0) / values.length;
      case "SampleCount":
        return values.length;
      default: {
        // Nearest-rank percentile over the raw values (CloudWatch computes it over its own sketch: close, not equal).
        const sorted = [...values].sort((a, b) => a - b);
        const rank = Math.ceil((Number(stat.slice(1)) / 100) * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
      }
    }
  }

  /** The metrics that have any value, for reports. */
  metrics(): MetricId[] {
    return [...this.series.keys()].map((key) => {
      const [namespace, metricName, dimensions] = JSON.parse(key) as [string, string, [string, string][]];
      return { namespace, metricName, dimensions };
    });
  }
}
