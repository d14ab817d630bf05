/**
 * The stack's log metric filters, counted over the function's log lines: the one pattern form the construct writes,
 * `{ $.field = "value" }` joined by `&&` (CloudWatch Logs, "Filter pattern syntax", JSON). Any other pattern, a
 * filter on a log group that is not a function's (`/aws/lambda/<name>`), or a transformation other than a constant
 * value is refused at start-up.
 */
import type { MonitoringResource } from "../provision/monitoring";
import type { MetricStore } from "./metric-store";

interface Filter {
  readonly functionName: string;
  readonly conditions: readonly (readonly [string, string])[];
  readonly namespace: string;
  readonly metricName: string;
  readonly value: number;
}

const TERM = /^\$\.([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"([^"]*)"$/;

function readFilter(r: MonitoringResource): Filter {
  const fail = (message: string): never => {
    throw new Error(`${r.address}: ${message} (packages/local-cloud/src/alarms/README.md)`);
  };
  const group = String(r.body.log_group_name);
  if (!group.startsWith("/aws/lambda/")) fail(`log group ${group} is not a function's: the local alarms count filters on /aws/lambda/<name> only`);
  const pattern = String(r.body.pattern).trim();
  const inner = /^\{(.*)\}$/.exec(pattern)?.[1] ?? fail(`pattern ${pattern} is not a JSON filter { … }`);
  const conditions = inner.split("&&").map((t) => {
    const m = TERM.exec(t.trim()) ?? fail(`pattern term "${t.trim()}" is not implemented (only $.field = "value")`);
    return [m[1], m[2]] as const;
  });
  const t = (Array.isArray(r.body.metric_transformation) ? r.body.metric_transformation[0] : r.body.metric_transformation) as Record<string, unknown>;
  const value = Number(t?.value);
  if (!Number.isFinite(value)) fail(`metric_transformation value ${String(t?.value)} is not implemented (only a constant)`);
  if (t.dimensions !== undefined || t.default_value !== undefined) fail("metric_transformation dimensions and default_value are not implemented");
  return { functionName: group.slice("/aws/lambda/".length), conditions, namespace: String(t.namespace), metricName: String(t.name), value };
}

/** Reads the filters; the returned function counts one log line of a function. */
export function logFilterCounter(store: MetricStore, resources: readonly MonitoringResource[]): ((functionName: string, line: string) => void) | undefined {
  const filters = resources.map(readFilter);
  if (filters.length === 0) return undefined;
  return (functionName, line) => {
    const mine = filters.filter((f) => f.functionName === functionName);
    if (mine.length === 0 || !line.startsWith("{")) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    if (typeof parsed !== "object" || parsed === null) return;
    const fields = new Map(Object.entries(parsed as Record<string, unknown>));
    for (const f of mine) {
      if (f.conditions.every(([field, value]) => fields.get(field) === value)) store.put({ namespace: f.namespace, metricName: f.metricName, dimensions: [], value: f.value, at: Date.now() });
    }
  };
}
