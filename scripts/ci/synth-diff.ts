/**
 * Compares two synthesized stacks (`cdk.tf.json`) the way the CDK Terrain check needs: the only field allowed to
 * differ between a cdktf and a cdktn build is `"//".metadata.version` (the library's own version stamp).
 */

/** JSON paths (dot-joined, `[i]` for array items) whose values may differ between two builds. */
const IGNORED_PATHS: readonly string[] = ["//.metadata.version"];

export interface SynthDifference {
  readonly path: string;
  readonly left: unknown;
  readonly right: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

function walk(left: unknown, right: unknown, path: string, out: SynthDifference[], limit: number): void {
  if (out.length >= limit || IGNORED_PATHS.includes(path)) return;
  if (Array.isArray(left) && Array.isArray(right)) {
    const length = Math.max(left.length, right.length);
    for (let i = 0; i < length; i++) walk(left[i], right[i], child(path, i), out, limit);
    return;
  }
  if (isObject(left) && isObject(right)) {
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
    for (const key of keys) walk(left[key], right[key], child(path, key), out, limit);
    return;
  }
  if (!Object.is(left, right)) out.push({ path, left, right });
}

/** Every difference (up to `limit`) outside the ignored paths; key order and whitespace do not count. */
export function diffSynth(left: unknown, right: unknown, limit = 20): SynthDifference[] {
  const out: SynthDifference[] = [];
  walk(left, right, "", out, limit);
  return out;
}

/**
 * Replaces `root` (an absolute folder) with `<root>` in every string of a synthesized document: a local backend's
 * state path is absolute, so two builds in two folders differ there and nowhere else.
 */
export function relativeTo(doc: unknown, root: string): unknown {
  if (typeof doc === "string") return doc.split(root).join("<root>");
  if (Array.isArray(doc)) return doc.map((item) => relativeTo(item, root));
  if (isObject(doc)) return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, relativeTo(v, root)]));
  return doc;
}

/** One line per difference, values shortened so a CI log stays readable. */
export function formatDifferences(differences: readonly SynthDifference[]): string {
  const show = (value: unknown): string => {
    const text = value === undefined ? "(absent)" : JSON.stringify(value);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  };
  return differences.map((d) => `  ${d.path || "(root)"}: ${show(d.left)} ≠ ${show(d.right)}`).join("\n");
}
