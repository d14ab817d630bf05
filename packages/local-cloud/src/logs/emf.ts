/**
 * CloudWatch's embedded metric format, read off a log line as CloudWatch Logs extracts it ("Specification: Embedded
 * metric format"): a JSON object whose `_aws.CloudWatchMetrics` directives name a namespace, dimension sets and
 * metrics; every dimension and metric named is a root member of the object. A metric value may be one number or a
 * list of them (each value is one datapoint: Powertools Metrics writes a list when one invocation adds a metric
 * several times, as the function does once per record). Lines that are not EMF give nothing; a malformed directive
 * gives nothing either, as CloudWatch ignores it (the line stays a log line).
 *
 * The points are shaped as the local cloud's metric store takes them (`{ namespace, metricName, dimensions, value,
 * at }`), so the function's fate metrics can be fed to the local alarms by one call per line.
 */
export interface EmfDatapoint {
  readonly namespace: string;
  readonly metricName: string;
  /** `[name, value]` pairs: names are outside text, never a plain object's keys. */
  readonly dimensions: readonly (readonly [string, string])[];
  readonly value: number;
  /** Epoch ms: the document's `_aws.Timestamp`. */
  readonly at: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The datapoints of one log line; empty when it is not an EMF document. */
export function emfDatapoints(line: string): EmfDatapoint[] {
  const text = line.trim();
  if (!text.startsWith("{")) return [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isObject(doc) || !isObject(doc._aws)) return [];
  const root = new Map(Object.entries(doc));
  const at = doc._aws.Timestamp;
  const directives = doc._aws.CloudWatchMetrics;
  if (typeof at !== "number" || !Array.isArray(directives)) return [];
  const points: EmfDatapoint[] = [];
  for (const d of directives) {
    if (!isObject(d) || typeof d.Namespace !== "string" || !Array.isArray(d.Dimensions) || !Array.isArray(d.Metrics)) continue;
    for (const set of d.Dimensions.length === 0 ? [[]] : d.Dimensions) {
      if (!Array.isArray(set)) continue;
      const dimensions = set.map((name) => [String(name), root.get(String(name))] as const);
      if (dimensions.some(([, value]) => typeof value !== "string")) continue;
      for (const m of d.Metrics) {
        if (!isObject(m) || typeof m.Name !== "string") continue;
        const raw = root.get(m.Name);
        for (const value of Array.isArray(raw) ? raw : [raw]) {
          if (typeof value === "number" && Number.isFinite(value)) points.push({ namespace: d.Namespace, metricName: m.Name, dimensions: dimensions as (readonly [string, string])[], value, at });
        }
      }
    }
  }
  return points;
}
