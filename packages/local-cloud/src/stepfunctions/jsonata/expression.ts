/**
 * Compiling JSONata expressions once: compilation dominates the cost of an evaluation, and the same definition
 * runs thousands of executions, so compiled expressions are cached by source text.
 */
import jsonata from "jsonata";
import { SFN_FUNCTIONS } from "./functions";

export type Expression = jsonata.Expression;

const CACHE_LIMIT = 5000;
const cache = new Map<string, Expression>();

/** A syntax error, with jsonata's code and position. */
export class JsonataSyntaxError extends Error {
  /** The field holding the expression, e.g. `Output/x` (set by the template compiler). */
  location?: string;
  constructor(
    readonly source: string,
    readonly code: string,
    readonly position: number,
    message: string,
  ) {
    super(message);
    this.name = "JsonataSyntaxError";
  }
}

/** Compiles (or fetches from the cache) one expression, with Step Functions' functions bound and `$eval` removed. */
export function compileExpression(source: string): Expression {
  const cached = cache.get(source);
  if (cached) return cached;
  let expr: Expression;
  try {
    expr = jsonata(source);
  } catch (err) {
    const e = err as { code?: string; position?: number; message?: string };
    throw new JsonataSyntaxError(source, e.code ?? "S0000", e.position ?? 0, e.message ?? String(err));
  }
  const parseErrors = (expr as unknown as { errors(): unknown[] | undefined }).errors();
  if (parseErrors && parseErrors.length > 0) {
    const e = parseErrors[0] as { code?: string; position?: number; message?: string };
    throw new JsonataSyntaxError(source, e.code ?? "S0500", e.position ?? 0, e.message ?? "syntax error");
  }
  for (const [name, impl, signature] of SFN_FUNCTIONS) {
    expr.registerFunction(name, impl as (...args: unknown[]) => unknown, signature);
  }
  // AWS: "$eval is not available"; an unbound name makes a call fail like any non-function (T1006).
  expr.assign("eval", undefined);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, expr);
  return expr;
}

/** `"{% expr %}"` -> `expr`; anything else -> undefined. */
export function extractExpression(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.length < 4 || !value.startsWith("{%") || !value.endsWith("%}")) return undefined;
  return value.slice(2, -2).trim();
}
