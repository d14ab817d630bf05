/**
 * The JSONPath subset Step Functions definitions use: `$`, `.name`, `['name']`, `[n]`, `[-n]`, `[*]`, `.*`,
 * `[a:b]`, `[n,m]` and `..name`. Paths are parsed once at definition time.
 * A path with a wildcard, slice, union or deep scan is indefinite and yields an array of matches.
 */

type Step =
  | { t: "name"; name: string }
  | { t: "index"; index: number }
  | { t: "wild" }
  | { t: "slice"; start?: number; end?: number }
  | { t: "union"; items: Array<number | string> }
  | { t: "deep"; name: string };

export interface CompiledPath {
  readonly source: string;
  /** `$` (input), `$$` (context) or a variable name (`$var`). */
  readonly root: { kind: "input" } | { kind: "context" } | { kind: "variable"; name: string };
  readonly steps: readonly Step[];
  readonly definite: boolean;
}

class PathSyntaxError extends Error {
  constructor(source: string, detail: string) {
    super(`Invalid JSONPath '${source}': ${detail}`);
    this.name = "PathSyntaxError";
  }
}

const NAME = /^[^.[\]\s'"()=<>!?@,*]+/;

/** Parses a JSONPath (also `$$.x` context paths and `$var.x` variable paths). */
export function compilePath(source: string): CompiledPath {
  const src = source.trim();
  let i: number;
  let root: CompiledPath["root"];
  if (src.startsWith("$$")) {
    root = { kind: "context" };
    i = 2;
  } else if (src.startsWith("$")) {
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(src);
    if (m) {
      root = { kind: "variable", name: m[1] };
      i = m[0].length;
    } else {
      root = { kind: "input" };
      i = 1;
    }
  } else {
    throw new PathSyntaxError(source, "a path must start with '$'");
  }
  const steps: Step[] = [];
  while (i < src.length) {
    const c = src[i];
    if (src.startsWith("..", i)) {
      const m = NAME.exec(src.slice(i + 2));
      if (!m) throw new PathSyntaxError(source, `expected a name after '..' at ${i}`);
      steps.push({ t: "deep", name: m[0] });
      i += 2 + m[0].length;
    } else if (c === ".") {
      if (src[i + 1] === "*") {
        steps.push({ t: "wild" });
        i += 2;
        continue;
      }
      const m = NAME.exec(src.slice(i + 1));
      if (!m) throw new PathSyntaxError(source, `expected a name after '.' at ${i}`);
      steps.push({ t: "name", name: m[0] });
      i += 1 + m[0].length;
    } else if (c === "[") {
      const close = findClose(src, i);
      if (close < 0) throw new PathSyntaxError(source, `unclosed '[' at ${i}`);
      steps.push(parseBracket(src.slice(i + 1, close).trim(), source));
      i = close + 1;
    } else {
      throw new PathSyntaxError(source, `unexpected '${c}' at ${i}`);
    }
  }
  const definite = steps.every((s) => s.t === "name" || s.t === "index");
  return { source, root, steps, definite };
}

function findClose(src: string, open: number): number {
  let quote: string | undefined;
  for (let j = open + 1; j < src.length; j++) {
    const ch = src[j];
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "]") return j;
  }
  return -1;
}

function unquote(s: string): string | undefined {
  if (s.length >= 2 && (s[0] === "'" || s[0] === '"') && s[s.length - 1] === s[0]) {
    return s.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  return undefined;
}

function parseBracket(inner: string, source: string): Step {
  if (inner === "*") return { t: "wild" };
  const parts = splitTop(inner);
  if (parts.length > 1) {
    return {
      t: "union",
      items: parts.map((p) => {
        const q = unquote(p.trim());
        if (q !== undefined) return q;
        const n = Number(p.trim());
        if (!Number.isInteger(n)) throw new PathSyntaxError(source, `bad union member '${p}'`);
        return n;
      }),
    };
  }
  const q = unquote(inner);
  if (q !== undefined) return { t: "name", name: q };
  if (inner.includes(":")) {
    const [a, b] = inner.split(":");
    const start = a.trim() === "" ? undefined : Number(a);
    const end = b === undefined || b.trim() === "" ? undefined : Number(b);
    if ((start !== undefined && !Number.isInteger(start)) || (end !== undefined && !Number.isInteger(end))) {
      throw new PathSyntaxError(source, `bad slice '[${inner}]'`);
    }
    return { t: "slice", start, end };
  }
  const n = Number(inner);
  if (inner !== "" && Number.isInteger(n)) return { t: "index", index: n };
  throw new PathSyntaxError(source, `unsupported selector '[${inner}]' (filters are not supported)`);
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let j = 0; j < s.length; j++) {
    const ch = s[j];
    if (quote) {
      if (ch === "\\") j++;
      else if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ",") {
      out.push(s.slice(start, j));
      start = j + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

const NOT_FOUND = Symbol("not found");

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function applyStep(step: Step, values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (step.t) {
      case "name":
        if (isObject(v) && Object.prototype.hasOwnProperty.call(v, step.name)) out.push(v[step.name]);
        break;
      case "index":
        if (Array.isArray(v)) {
          const idx = step.index < 0 ? v.length + step.index : step.index;
          if (idx >= 0 && idx < v.length) out.push(v[idx]);
        }
        break;
      case "wild":
        if (Array.isArray(v)) out.push(...v);
        else if (isObject(v)) out.push(...Object.values(v));
        break;
      case "slice":
        if (Array.isArray(v)) out.push(...v.slice(step.start ?? 0, step.end ?? v.length));
        break;
      case "union":
        for (const item of step.items) {
          if (typeof item === "number" && Array.isArray(v)) {
            const idx = item < 0 ? v.length + item : item;
            if (idx >= 0 && idx < v.length) out.push(v[idx]);
          } else if (typeof item === "string" && isObject(v) && item in v) out.push(v[item]);
        }
        break;
      case "deep":
        collectDeep(v, step.name, out);
        break;
    }
  }
  return out;
}

function collectDeep(v: unknown, name: string, out: unknown[]): void {
  if (Array.isArray(v)) for (const x of v) collectDeep(x, name, out);
  else if (isObject(v)) {
    if (Object.prototype.hasOwnProperty.call(v, name)) out.push(v[name]);
    for (const x of Object.values(v)) collectDeep(x, name, out);
  }
}

/** Evaluates a path against a root value. Returns `found: false` when a definite path matches nothing. */
export function evaluatePath(path: CompiledPath, root: unknown): { found: boolean; value: unknown } {
  if (path.definite) {
    let cur: unknown = root;
    for (const step of path.steps) {
      cur = definiteStep(step, cur);
      if (cur === NOT_FOUND) return { found: false, value: undefined };
    }
    return { found: true, value: cur };
  }
  let values: unknown[] = [root];
  for (const step of path.steps) values = applyStep(step, values);
  return { found: true, value: values };
}

function definiteStep(step: Step, cur: unknown): unknown {
  if (step.t === "name") {
    return isObject(cur) && Object.prototype.hasOwnProperty.call(cur, step.name) ? cur[step.name] : NOT_FOUND;
  }
  if (step.t === "index" && Array.isArray(cur)) {
    const idx = step.index < 0 ? cur.length + step.index : step.index;
    return idx >= 0 && idx < cur.length ? cur[idx] : NOT_FOUND;
  }
  return NOT_FOUND;
}

/** `$['a']['b']` form used in AWS causes ("No results for path: $['x']"). */
export function bracketForm(path: CompiledPath): string {
  const head = path.root.kind === "context" ? "$$" : path.root.kind === "variable" ? `$${path.root.name}` : "$";
  return (
    head +
    path.steps
      .map((s) => (s.t === "name" ? `['${s.name}']` : s.t === "index" ? `[${s.index}]` : s.t === "wild" ? "[*]" : ""))
      .join("")
  );
}
