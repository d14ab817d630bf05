/**
 * A field value of a JSONata state (Arguments, Output, Assign, Items, Condition, ...), compiled once.
 * Literal parts are kept by reference (never mutated), `{% %}` strings are compiled expressions, evaluated
 * against bindings holding `$states` and the variables in scope.
 */
import { StatesError, StatesErrorName } from "../errors";
import { compileExpression, extractExpression, JsonataSyntaxError, type Expression } from "./expression";

export type Bindings = Record<string, unknown>;

export interface Template {
  /** True when the value has no expression: `evaluate` returns it unchanged. */
  readonly constant: boolean;
  /** The field location used in error causes, e.g. `Arguments/Key/pk/S`. */
  readonly location: string;
  /** The expression text when the whole field is one expression. */
  readonly source?: string;
  evaluate(bindings: Bindings): Promise<unknown>;
}

/** JSONata type names as AWS reports them in "Expected 'array', but was 'object'". */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e && typeof e.message === "string" ? e.message : String(err);
  return e && e.code ? `${e.code}: ${message}` : message;
}

async function evaluateExpression(expr: Expression, source: string, location: string, bindings: Bindings): Promise<unknown> {
  let result: unknown;
  try {
    result = await expr.evaluate(undefined, bindings);
  } catch (err) {
    throw new StatesError(
      StatesErrorName.QueryEvaluationError,
      `The JSONata expression '${source}' specified for the field '${location}' threw an error during evaluation. ${describeError(err)}`,
      { cause: err, location },
    );
  }
  if (result === undefined) {
    throw new StatesError(
      StatesErrorName.QueryEvaluationError,
      `The JSONata expression '${source}' specified for the field '${location}' returned nothing (undefined).`,
      { location },
    );
  }
  if (typeof result === "function") {
    throw new StatesError(
      StatesErrorName.QueryEvaluationError,
      `The JSONata expression '${source}' specified for the field '${location}' returned an unsupported result type.`,
      { location },
    );
  }
  return result;
}

type Node =
  | { kind: "literal"; value: unknown }
  | { kind: "expr"; expr: Expression; source: string; location: string }
  | { kind: "object"; keys: string[]; nodes: Node[] }
  | { kind: "array"; nodes: Node[] };

function build(value: unknown, location: string): Node {
  const source = extractExpression(value);
  if (source !== undefined) {
    try {
      return { kind: "expr", expr: compileExpression(source), source, location };
    } catch (e) {
      if (e instanceof JsonataSyntaxError) e.location ??= location;
      throw e;
    }
  }
  if (Array.isArray(value)) {
    const nodes = value.map((v, i) => build(v, `${location}/${i}`));
    return nodes.every((n) => n.kind === "literal") ? { kind: "literal", value } : { kind: "array", nodes };
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const nodes = keys.map((k) => build((value as Record<string, unknown>)[k], `${location}/${k}`));
    return nodes.every((n) => n.kind === "literal") ? { kind: "literal", value } : { kind: "object", keys, nodes };
  }
  return { kind: "literal", value };
}

async function run(node: Node, bindings: Bindings): Promise<unknown> {
  switch (node.kind) {
    case "literal":
      return node.value;
    case "expr":
      return evaluateExpression(node.expr, node.source, node.location, bindings);
    case "array": {
      const out = new Array<unknown>(node.nodes.length);
      for (let i = 0; i < node.nodes.length; i++) out[i] = await run(node.nodes[i], bindings);
      return out;
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < node.keys.length; i++) out[node.keys[i]] = await run(node.nodes[i], bindings);
      return out;
    }
  }
}

/** Compiles a field value. Throws JsonataSyntaxError for an invalid expression. */
export function compileTemplate(value: unknown, location: string): Template {
  const root = build(value, location);
  if (root.kind === "literal") {
    const literal = root.value;
    return { constant: true, location, evaluate: () => Promise.resolve(literal) };
  }
  if (root.kind === "expr") {
    const { expr, source } = root;
    return { constant: false, location, source, evaluate: (b) => evaluateExpression(expr, source, location, b) };
  }
  return { constant: false, location, evaluate: (b) => run(root, b) };
}

/** Evaluates a template whose result must be of one JSON type (AWS wording on mismatch). */
export async function evaluateTyped(template: Template, bindings: Bindings, expected: "array" | "object" | "number" | "string" | "boolean"): Promise<unknown> {
  const value = await template.evaluate(bindings);
  const actual = jsonType(value);
  if (actual !== expected) {
    const shown = template.source ?? JSON.stringify(value);
    throw new StatesError(
      StatesErrorName.QueryEvaluationError,
      `The JSONata expression '${shown}' specified for the field '${template.location}' returned an unexpected result type. Expected '${expected}', but was '${actual}' for value: ${JSON.stringify(value)}`,
      { location: template.location },
    );
  }
  return value;
}
