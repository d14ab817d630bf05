/** Choice rules of JSONPath states (comparison operators, And/Or/Not), compiled into predicates. */
import { StatesError, StatesErrorName } from "../errors";
import { compilePath, evaluatePath, type CompiledPath } from "./path";
import type { PathRoots } from "./intrinsics";

export type Predicate = (roots: PathRoots) => boolean;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 timestamp (AWS: ISO-8601 extended offset date-time), or undefined. */
export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v !== "string") return undefined;
  const m = RFC3339.exec(v);
  if (!m) return undefined;
  const [mo, d, h, mi, s] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

function globMatch(value: string, pattern: string): boolean {
  let re = "^";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\" && i + 1 < pattern.length) re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    else if (c === "*") re += ".*";
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`${re}$`, "s").test(value);
}

type Kind = "string" | "numeric" | "boolean" | "timestamp";
type Cmp = "Equals" | "LessThan" | "GreaterThan" | "LessThanEquals" | "GreaterThanEquals";
const KINDS: Record<string, Kind> = { String: "string", Numeric: "numeric", Boolean: "boolean", Timestamp: "timestamp" };
const CMPS: Cmp[] = ["Equals", "LessThanEquals", "GreaterThanEquals", "LessThan", "GreaterThan"];

function order(kind: Kind, a: unknown, b: unknown): number | undefined {
  switch (kind) {
    case "string":
      if (typeof a !== "string" || typeof b !== "string") return undefined;
      return a < b ? -1 : a > b ? 1 : 0;
    case "numeric":
      if (typeof a !== "number" || typeof b !== "number") return undefined;
      return a - b;
    case "boolean":
      if (typeof a !== "boolean" || typeof b !== "boolean") return undefined;
      return a === b ? 0 : 1;
    case "timestamp": {
      const ta = parseTimestamp(a);
      const tb = parseTimestamp(b);
      if (ta === undefined || tb === undefined) return undefined;
      return ta - tb;
    }
  }
}

function holds(cmp: Cmp, o: number): boolean {
  switch (cmp) {
    case "Equals":
      return o === 0;
    case "LessThan":
      return o < 0;
    case "GreaterThan":
      return o > 0;
    case "LessThanEquals":
      return o <= 0;
    case "GreaterThanEquals":
      return o >= 0;
  }
}

function read(path: CompiledPath, roots: PathRoots): { found: boolean; value: unknown } {
  if (path.root.kind === "variable") {
    if (!(path.root.name in roots.vars)) return { found: false, value: undefined };
    return evaluatePath(path, roots.vars[path.root.name]);
  }
  return evaluatePath(path, path.root.kind === "context" ? roots.context : roots.input);
}

function mustRead(path: CompiledPath, roots: PathRoots): unknown {
  const r = read(path, roots);
  if (!r.found) throw new StatesError(StatesErrorName.Runtime, `Invalid path '${path.source}': The choice state's condition path references an invalid value.`);
  return r.value;
}

/** Compiles one rule (top-level rules may carry Next, Assign and Output; nested ones may not). */
export function compileRule(rule: Record<string, unknown>, where: string, problems: string[]): Predicate {
  if (Array.isArray(rule.And) || Array.isArray(rule.Or)) {
    const isAnd = Array.isArray(rule.And);
    const subs = ((isAnd ? rule.And : rule.Or) as Record<string, unknown>[]).map((r, i) => compileRule(r, `${where}/${isAnd ? "And" : "Or"}/${i}`, problems));
    return isAnd ? (roots) => subs.every((p) => p(roots)) : (roots) => subs.some((p) => p(roots));
  }
  if (rule.Not && typeof rule.Not === "object") {
    const sub = compileRule(rule.Not as Record<string, unknown>, `${where}/Not`, problems);
    return (roots) => !sub(roots);
  }
  if (typeof rule.Variable !== "string") {
    problems.push(`${where}: a choice rule needs 'Variable' and a comparison operator, or And/Or/Not`);
    return () => false;
  }
  let variable: CompiledPath;
  try {
    variable = compilePath(rule.Variable);
  } catch (e) {
    problems.push(`${where}/Variable: ${(e as Error).message}`);
    return () => false;
  }
  const ops = Object.keys(rule).filter((k) => !["Variable", "Next", "Assign", "Output", "Comment"].includes(k));
  if (ops.length !== 1) {
    problems.push(`${where}: a choice rule must have exactly one comparison operator, found ${ops.length ? ops.join(", ") : "none"}`);
    return () => false;
  }
  const op = ops[0];
  const operand = rule[op];
  const typeTest = (test: (v: unknown) => boolean): Predicate => {
    if (typeof operand !== "boolean") problems.push(`${where}/${op} must be true or false`);
    return (roots) => {
      const r = read(variable, roots);
      const result = r.found && test(r.value);
      return operand ? result : !result;
    };
  };
  switch (op) {
    case "IsPresent":
      return typeTest(() => true);
    case "IsNull":
      return typeTest((v) => v === null);
    case "IsString":
      return typeTest((v) => typeof v === "string");
    case "IsNumeric":
      return typeTest((v) => typeof v === "number");
    case "IsBoolean":
      return typeTest((v) => typeof v === "boolean");
    case "IsTimestamp":
      return typeTest((v) => parseTimestamp(v) !== undefined);
    case "StringMatches":
      if (typeof operand !== "string") problems.push(`${where}/StringMatches must be a string`);
      return (roots) => {
        const v = mustRead(variable, roots);
        return typeof v === "string" && globMatch(v, String(operand));
      };
  }
  const m = /^(String|Numeric|Boolean|Timestamp)(Equals|LessThanEquals|GreaterThanEquals|LessThan|GreaterThan)(Path)?$/.exec(op);
  if (!m || (m[1] === "Boolean" && m[2] !== "Equals") || !CMPS.includes(m[2] as Cmp)) {
    problems.push(`${where}: unknown comparison operator '${op}'`);
    return () => false;
  }
  const kind = KINDS[m[1]];
  const cmp = m[2] as Cmp;
  if (m[3]) {
    if (typeof operand !== "string") {
      problems.push(`${where}/${op} must be a path string`);
      return () => false;
    }
    let other: CompiledPath;
    try {
      other = compilePath(operand);
    } catch (e) {
      problems.push(`${where}/${op}: ${(e as Error).message}`);
      return () => false;
    }
    return (roots) => {
      const o = order(kind, mustRead(variable, roots), mustRead(other, roots));
      return o !== undefined && holds(cmp, o);
    };
  }
  const expectedType = kind === "numeric" ? "number" : kind === "boolean" ? "boolean" : "string";
  if (typeof operand !== expectedType) problems.push(`${where}/${op} must be a ${expectedType}`);
  return (roots) => {
    const o = order(kind, mustRead(variable, roots), operand);
    return o !== undefined && holds(cmp, o);
  };
}
