/**
 * Intrinsic functions of JSONPath states (`States.Format('{}', $.x)` ...), parsed once into a call tree.
 */
import { createHash, randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import { StatesError, StatesErrorName } from "../errors";
import { HASH_ALGORITHMS, seededRandom } from "../jsonata/functions";
import { compilePath, evaluatePath, type CompiledPath } from "./path";

type Arg = { k: "lit"; v: unknown } | { k: "path"; p: CompiledPath } | { k: "call"; c: IntrinsicCall };
export interface IntrinsicCall {
  name: string;
  args: Arg[];
  source: string;
}

/** Roots a path argument can read. */
export interface PathRoots {
  input: unknown;
  context: unknown;
  vars: Record<string, unknown>;
}

class IntrinsicSyntaxError extends Error {
  constructor(source: string, detail: string) {
    super(`Invalid intrinsic function '${source}': ${detail}`);
    this.name = "IntrinsicSyntaxError";
  }
}

export function isIntrinsic(text: string): boolean {
  return /^\s*States\.[A-Za-z0-9]+\s*\(/.test(text);
}

/** Parses `States.X(...)`. */
export function parseIntrinsic(source: string): IntrinsicCall {
  let i = 0;
  const s = source.trim();
  const fail = (d: string): never => {
    throw new IntrinsicSyntaxError(source, d);
  };
  const ws = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const call = (): IntrinsicCall => {
    const start = i;
    const m = /^States\.([A-Za-z0-9]+)\s*\(/.exec(s.slice(i));
    if (!m) fail(`expected States.<Function>( at ${i}`);
    const name = (m as RegExpExecArray)[1];
    if (!(name in FUNCTIONS)) fail(`unknown function States.${name}`);
    i += (m as RegExpExecArray)[0].length;
    const args: Arg[] = [];
    ws();
    if (s[i] === ")") {
      i++;
      return { name, args, source: s.slice(start, i) };
    }
    for (;;) {
      ws();
      args.push(arg());
      ws();
      if (s[i] === ",") {
        i++;
        continue;
      }
      if (s[i] === ")") {
        i++;
        break;
      }
      fail(`expected ',' or ')' at ${i}`);
    }
    return { name, args, source: s.slice(start, i) };
  };
  const arg = (): Arg => {
    const c = s[i];
    if (c === "'") {
      let out = "";
      i++;
      while (i < s.length && s[i] !== "'") {
        if (s[i] === "\\") {
          i++;
          if (i >= s.length) fail("unterminated escape");
        }
        out += s[i++];
      }
      if (s[i] !== "'") fail("unterminated string");
      i++;
      return { k: "lit", v: out };
    }
    if (c === "$") {
      let j = i;
      let depth = 0;
      let quote: string | undefined;
      for (; j < s.length; j++) {
        const ch = s[j];
        if (quote) {
          if (ch === quote) quote = undefined;
        } else if (ch === "'" || ch === '"') quote = ch;
        else if (ch === "[") depth++;
        else if (ch === "]") depth--;
        else if (depth === 0 && (ch === "," || ch === ")")) break;
      }
      const text = s.slice(i, j).trim();
      i = j;
      return { k: "path", p: compilePath(text) };
    }
    if (s.startsWith("States.", i)) return { k: "call", c: call() };
    const m = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i));
    if (!m) fail(`unexpected argument at ${i}`);
    i += (m as RegExpExecArray)[0].length;
    return { k: "lit", v: JSON.parse((m as RegExpExecArray)[0]) };
  };
  const result = call();
  ws();
  if (i !== s.length) fail(`unexpected text after the call at ${i}`);
  return result;
}

function failure(call: IntrinsicCall, detail: string): StatesError {
  return new StatesError(StatesErrorName.IntrinsicFailure, `Invalid arguments in ${call.source}: ${detail}`);
}

function resolvePath(p: CompiledPath, roots: PathRoots): unknown {
  const root = p.root.kind === "context" ? roots.context : p.root.kind === "variable" ? roots.vars[p.root.name] : roots.input;
  if (p.root.kind === "variable" && !(p.root.name in roots.vars)) {
    throw new StatesError(StatesErrorName.Runtime, `The variable '$${p.root.name}' is not defined.`);
  }
  const r = evaluatePath(p, root);
  if (!r.found) throw new StatesError(StatesErrorName.Runtime, `The JSONPath '${p.source}' could not be found in the input '${JSON.stringify(roots.input)}'`);
  return r.value;
}

/** Evaluates a parsed call. */
export function evaluateIntrinsic(call: IntrinsicCall, roots: PathRoots): unknown {
  const values = call.args.map((a) => (a.k === "lit" ? a.v : a.k === "path" ? resolvePath(a.p, roots) : evaluateIntrinsic(a.c, roots)));
  const fn = FUNCTIONS[call.name];
  if (fn.arity && (values.length < fn.arity[0] || values.length > fn.arity[1])) {
    throw failure(call, `States.${call.name} takes ${fn.arity[0] === fn.arity[1] ? fn.arity[0] : `${fn.arity[0]} to ${fn.arity[1]}`} arguments, got ${values.length}`);
  }
  return fn.run(values, call);
}

const num = (v: unknown, call: IntrinsicCall, what: string): number => {
  if (typeof v !== "number") throw failure(call, `${what} must be a number`);
  return v;
};
const int = (v: unknown, call: IntrinsicCall, what: string): number => {
  if (!Number.isInteger(v)) throw failure(call, `${what} must be an integer`);
  return v as number;
};
const str = (v: unknown, call: IntrinsicCall, what: string): string => {
  if (typeof v !== "string") throw failure(call, `${what} must be a string`);
  return v;
};
const arr = (v: unknown, call: IntrinsicCall, what: string): unknown[] => {
  if (!Array.isArray(v)) throw failure(call, `${what} must be an array`);
  return v;
};

type Fn = { arity?: [number, number]; run(values: unknown[], call: IntrinsicCall): unknown };

const FUNCTIONS: Record<string, Fn> = {
  Format: {
    run(v, c) {
      const template = str(v[0], c, "the first argument");
      const args = v.slice(1);
      let n = 0;
      const out = template.replace(/\{\}/g, () => {
        if (n >= args.length) throw failure(c, "fewer arguments than '{}' placeholders");
        const a = args[n++];
        return typeof a === "string" ? a : JSON.stringify(a);
      });
      if (n !== args.length) throw failure(c, "more arguments than '{}' placeholders");
      return out;
    },
  },
  StringToJson: {
    arity: [1, 1],
    run(v, c) {
      try {
        return JSON.parse(str(v[0], c, "the argument"));
      } catch (e) {
        if (e instanceof StatesError) throw e;
        throw failure(c, `the argument is not valid JSON`);
      }
    },
  },
  JsonToString: { arity: [1, 1], run: (v) => JSON.stringify(v[0]) },
  Array: { run: (v) => v },
  ArrayPartition: {
    arity: [2, 2],
    run(v, c) {
      const a = arr(v[0], c, "the first argument");
      const size = int(v[1], c, "the chunk size");
      if (size <= 0) throw failure(c, "the chunk size must be positive");
      const out: unknown[][] = [];
      for (let i = 0; i < a.length; i += size) out.push(a.slice(i, i + size));
      return out;
    },
  },
  ArrayContains: { arity: [2, 2], run: (v, c) => arr(v[0], c, "the first argument").some((x) => isDeepStrictEqual(x, v[1])) },
  ArrayRange: {
    arity: [3, 3],
    run(v, c) {
      const [start, end, step] = [int(v[0], c, "start"), int(v[1], c, "end"), int(v[2], c, "step")];
      if (step === 0) throw failure(c, "step must not be 0");
      const out: number[] = [];
      for (let x = start; step > 0 ? x <= end : x >= end; x += step) {
        out.push(x);
        if (out.length > 1000) throw failure(c, "the range has more than 1000 items");
      }
      return out;
    },
  },
  ArrayGetItem: {
    arity: [2, 2],
    run(v, c) {
      const a = arr(v[0], c, "the first argument");
      const i = int(v[1], c, "the index");
      if (i < 0 || i >= a.length) throw failure(c, `index ${i} is out of bounds`);
      return a[i];
    },
  },
  ArrayLength: { arity: [1, 1], run: (v, c) => arr(v[0], c, "the argument").length },
  ArrayUnique: {
    arity: [1, 1],
    run(v, c) {
      const out: unknown[] = [];
      for (const x of arr(v[0], c, "the argument")) if (!out.some((y) => isDeepStrictEqual(x, y))) out.push(x);
      return out;
    },
  },
  Base64Encode: { arity: [1, 1], run: (v, c) => Buffer.from(str(v[0], c, "the argument"), "utf8").toString("base64") },
  Base64Decode: {
    arity: [1, 1],
    run(v, c) {
      const s = str(v[0], c, "the argument");
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw failure(c, "the argument is not valid base64");
      return Buffer.from(s, "base64").toString("utf8");
    },
  },
  Hash: {
    arity: [2, 2],
    run(v, c) {
      const data = v[0] === null ? undefined : v[0];
      if (data === undefined) throw failure(c, "the data must not be null");
      const algorithm = str(v[1], c, "the algorithm");
      const node = HASH_ALGORITHMS[algorithm];
      if (!node) throw failure(c, `the algorithm must be one of ${Object.keys(HASH_ALGORITHMS).join(", ")}`);
      return createHash(node).update(typeof data === "string" ? data : JSON.stringify(data), "utf8").digest("hex");
    },
  },
  JsonMerge: {
    arity: [3, 3],
    run(v, c) {
      const isObj = (x: unknown) => x !== null && typeof x === "object" && !Array.isArray(x);
      if (!isObj(v[0]) || !isObj(v[1])) throw failure(c, "both values must be JSON objects");
      if (v[2] !== false) throw failure(c, "only shallow merge is supported: the third argument must be false");
      return { ...(v[0] as object), ...(v[1] as object) };
    },
  },
  MathRandom: {
    arity: [2, 3],
    run(v, c) {
      const start = int(v[0], c, "start");
      const end = int(v[1], c, "end");
      const r = v.length === 3 ? seededRandom(int(v[2], c, "seed")) : Math.random();
      return start + Math.floor(r * (end - start));
    },
  },
  MathAdd: { arity: [2, 2], run: (v, c) => int(num(v[0], c, "the first value"), c, "the first value") + int(num(v[1], c, "the second value"), c, "the second value") },
  StringSplit: {
    arity: [2, 2],
    run(v, c) {
      const s = str(v[0], c, "the string");
      const delims = new Set(str(v[1], c, "the delimiter"));
      const out: string[] = [];
      let cur = "";
      for (const ch of s) {
        if (delims.has(ch)) {
          if (cur) out.push(cur);
          cur = "";
        } else cur += ch;
      }
      if (cur) out.push(cur);
      return out;
    },
  },
  UUID: { arity: [0, 0], run: () => randomUUID() },
};
