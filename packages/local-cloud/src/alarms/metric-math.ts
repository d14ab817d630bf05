/**
 * CloudWatch metric math, the part the stack's alarms use: numbers, query ids, `+ - * /`, parentheses, arrays, and
 * the functions `FILL(series, number)`, `DIFF(series)`, `SUM([..])`, `MAX([..])`, `MIN([..])` (CloudWatch User Guide,
 * "Using math expressions with CloudWatch metrics"). Anything else is refused by name, so a stack that uses more
 * fails loudly instead of being evaluated wrongly.
 *
 * A series is one value (or `undefined`: missing) per period of the query range, oldest first. Arithmetic between
 * two series is per period, a missing value counting as 0 beside a present one and missing where both are ("Missing
 * values in a time series are treated as 0"; a division by zero drops the period); beside a number, a series' missing
 * period stays missing. `FILL` fills every missing period; `DIFF` is a period's value minus the one before it (missing
 * for the first period of the range: the evaluator queries one period more for it).
 */
export type Series = (number | undefined)[];
type Value = Series | number | Value[];

/** A `metric_query` expression the local evaluation cannot compute (a function it does not implement, a bad id). */
export class MetricMathError extends Error {
  constructor(expression: string, message: string) {
    super(`metric math "${expression}": ${message}`);
    this.name = "MetricMathError";
  }
}

/** The functions implemented; CloudWatch has many more (the error names the one used). */
const MATH_FUNCTIONS = ["FILL", "DIFF", "SUM", "MAX", "MIN"] as const;

type Token = { kind: "num"; value: number } | { kind: "id"; value: string } | { kind: "op"; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),[\]]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new MetricMathError(text, `cannot read "${text.slice(at).trim()}"`);
    at = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: "num", value: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ kind: "id", value: m[2] });
    else tokens.push({ kind: "op", value: m[3] });
  }
  return tokens;
}

/** Evaluates `expression` over `lookup(id)` (the series of another query id), for `length` periods. */
export function evaluateMath(expression: string, lookup: (id: string) => Series, length: number): Series {
  const tokens = tokenize(expression);
  let i = 0;
  const fail = (message: string): never => {
    throw new MetricMathError(expression, message);
  };
  const peek = (v?: string) => tokens[i]?.kind === "op" && tokens[i].value === v;
  const expect = (v: string) => (peek(v) ? i++ : fail(`expected "${v}"`));
  const full = (v: number | undefined): Series => Array.from({ length }, () => v);
  const asSeries = (v: Value): Series => (typeof v === "number" ? full(v) : Array.isArray(v) && v.every((x) => x === undefined || typeof x === "number") ? (v as Series) : fail("an array is not a series here"));
  const binary = (a: Value, b: Value, op: string): Value => {
    const f = (x: number, y: number): number | undefined => (op === "+" ? x + y : op === "-" ? x - y : op === "*" ? x * y : y === 0 ? undefined : x / y);
    if (typeof a === "number" && typeof b === "number") return f(a, b) ?? fail("division by zero");
    const [sa, sb] = [asSeries(a), asSeries(b)];
    // A number has no periods of its own: only two series make a period present that one of them misses.
    const zero = typeof a !== "number" && typeof b !== "number" ? 0 : undefined;
    return sa.map((x, k) => {
      const [l, r] = [x ?? zero, sb[k] ?? zero];
      return l === undefined || r === undefined || (x === undefined && sb[k] === undefined) ? undefined : f(l, r);
    });
  };
  const call = (name: string, args: Value[]): Value => {
    switch (name) {
      case "FILL": {
        if (args.length !== 2 || typeof args[1] !== "number") return fail("FILL takes a series and a number (REPEAT, LINEAR and other fills are not implemented)");
        const fill = args[1];
        return asSeries(args[0]).map((x) => x ?? fill);
      }
      case "DIFF": {
        if (args.length !== 1) return fail("DIFF takes one series");
        const s = asSeries(args[0]);
        return s.map((x, k) => (k === 0 || x === undefined || s[k - 1] === undefined ? undefined : x - s[k - 1]!));
      }
      case "SUM":
      case "MAX":
      case "MIN": {
        if (args.length !== 1 || !Array.isArray(args[0]) || !(args[0] as Value[]).every((x) => Array.isArray(x) || typeof x === "number")) return fail(`${name} takes one array of series, e.g. ${name}([m1, m2])`);
        const list = (args[0] as Value[]).map(asSeries);
        const pick = (xs: number[]) => (name === "SUM" ? xs.reduce((a, b) => a + b, 0) : name === "MAX" ? Math.max(...xs) : Math.min(...xs));
        return full(undefined).map((_, k) => {
          const present = list.map((s) => s[k]).filter((x): x is number => x !== undefined);
          return present.length ? pick(present) : undefined;
        });
      }
      default:
        return fail(`function ${name} is not implemented by the local alarms (implemented: ${MATH_FUNCTIONS.join(", ")})`);
    }
  };
  const primary = (): Value => {
    const t = tokens[i++];
    if (!t) return fail("ends too early");
    if (t.kind === "num") return t.value;
    if (t.kind === "id") {
      if (peek("(")) {
        i++;
        const args: Value[] = [];
        if (!peek(")")) for (args.push(sum()); peek(","); i++, args.push(sum()));
        expect(")");
        return call(t.value, args);
      }
      return lookup(t.value);
    }
    if (t.value === "(") {
      const v = sum();
      expect(")");
      return v;
    }
    if (t.value === "[") {
      const items: Value[] = [sum()];
      while (peek(",")) {
        i++;
        items.push(sum());
      }
      expect("]");
      return items;
    }
    if (t.value === "-") return binary(0, primary(), "-");
    return fail(`unexpected "${t.value}"`);
  };
  const product = (): Value => {
    let v = primary();
    while (peek("*") || peek("/")) {
      const op = (tokens[i++] as { value: string }).value;
      v = binary(v, primary(), op);
    }
    return v;
  };
  const sum = (): Value => {
    let v = product();
    while (peek("+") || peek("-")) {
      const op = (tokens[i++] as { value: string }).value;
      v = binary(v, product(), op);
    }
    return v;
  };
  const result = sum();
  if (i !== tokens.length) fail(`unexpected "${(tokens[i] as { value: unknown }).value}"`);
  return asSeries(result);
}
