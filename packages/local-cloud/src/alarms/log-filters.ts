/**
 * The stack's log metric filters, counted over the function's log lines: JSON filters whose terms the construct
 * writes, joined by `&&` (CloudWatch Logs, "Filter and pattern syntax": JSON metric filter examples and compound
 * conditions): `$.field = "value"` (the field is that string), `$.field IS TRUE` / `IS FALSE` (the field is that
 * JSON boolean), `$.field IS NULL` (the field is JSON null) and `$.field NOT EXISTS` (the line has no such field).
 * Any other pattern or term (`||`, parentheses, nested or array selectors, numbers, wildcards), a filter on a log
 * group that is not a function's (`/aws/lambda/<name>`), or a transformation other than a constant value is refused
 * at start-up.
 */
import type { MonitoringResource } from "../provision/monitoring";
import type { MetricStore } from "./metric-store";

/** One term: whether a line's top-level fields (a Map: outside text is never an object key) satisfy it. */
type Condition = (fields: ReadonlyMap<string, unknown>) => boolean;

interface Filter {
  readonly functionName: string;
  readonly conditions: readonly Condition[];
  readonly namespace: string;
  readonly metricName: string;
  readonly value: number;
}

const SELECTOR = String.raw`\$\.([A-Za-z_][A-Za-z0-9_]*)`;
const EQUALS = new RegExp(String.raw`^${SELECTOR}\s*=\s*"([^"]*)"$`);
const IS = new RegExp(String.raw`^${SELECTOR}\s+IS\s+(TRUE|FALSE|NULL)$`);
const NOT_EXISTS = new RegExp(String.raw`^${SELECTOR}\s+NOT\s+EXISTS$`);
const IS_VALUES = new Map<string, boolean | null>([
  ["TRUE", true],
  ["FALSE", false],
  ["NULL", null],
]);

/** The condition of one term, or undefined when the local cloud does not implement its form. */
function conditionOf(term: string): Condition | undefined {
  const equals = EQUALS.exec(term);
  if (equals) return (fields) => fields.get(equals[1]) === equals[2];
  const is = IS.exec(term);
  if (is) return (fields) => fields.has(is[1]) && fields.get(is[1]) === IS_VALUES.get(is[2]);
  const absent = NOT_EXISTS.exec(term);
  if (absent) return (fields) => !fields.has(absent[1]);
  return undefined;
}

function readFilter(r: MonitoringResource): Filter {
  const fail = (message: string): never => {
    throw new Error(`${r.address}: ${message} (packages/local-cloud/src/alarms/README.md)`);
  };
  const group = String(r.body.log_group_name);
  if (!group.startsWith("/aws/lambda/")) fail(`log group ${group} is not a function's: the local alarms count filters on /aws/lambda/<name> only`);
  const pattern = String(r.body.pattern).trim();
  const inner = /^\{(.*)\}$/.exec(pattern)?.[1] ?? fail(`pattern ${pattern} is not a JSON filter { … }`);
  const conditions = inner.split("&&").map((t) => conditionOf(t.trim()) ?? fail(`pattern term "${t.trim()}" is not implemented (only $.field = "value", $.field IS TRUE|FALSE|NULL, $.field NOT EXISTS)`));
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
      if (f.conditions.every((holds) => holds(fields))) store.put({ namespace: f.namespace, metricName: f.metricName, dimensions: [], value: f.value, at: Date.now() });
    }
  };
}
