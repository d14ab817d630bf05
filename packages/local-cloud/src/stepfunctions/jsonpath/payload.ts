/**
 * Payload templates of JSONPath states (Parameters, ResultSelector, ItemSelector, Assign): keys ending in `.$`
 * take their value from a path (`$.x`, `$$.x`, `$var`) or an intrinsic function. Compiled once.
 */
import { StatesError, StatesErrorName } from "../errors";
import { compilePath, evaluatePath, type CompiledPath } from "./path";
import { evaluateIntrinsic, isIntrinsic, parseIntrinsic, type IntrinsicCall, type PathRoots } from "./intrinsics";

type PNode =
  | { k: "lit"; v: unknown }
  | { k: "path"; p: CompiledPath; field: string }
  | { k: "fn"; c: IntrinsicCall }
  | { k: "obj"; keys: string[]; nodes: PNode[] }
  | { k: "arr"; nodes: PNode[] };

export interface PayloadTemplate {
  readonly constant: boolean;
  evaluate(roots: PathRoots): unknown;
}

function build(value: unknown, field: string, problems: string[]): PNode {
  if (Array.isArray(value)) {
    const nodes = value.map((v, i) => build(v, `${field}[${i}]`, problems));
    return nodes.every((n) => n.k === "lit") ? { k: "lit", v: value } : { k: "arr", nodes };
  }
  if (value !== null && typeof value === "object") {
    const keys: string[] = [];
    const nodes: PNode[] = [];
    let dynamic = false;
    for (const [key, v] of Object.entries(value)) {
      if (key.endsWith(".$")) {
        dynamic = true;
        keys.push(key.slice(0, -2));
        if (typeof v !== "string") {
          problems.push(`the value of '${key}' must be a JSONPath or intrinsic function string`);
          nodes.push({ k: "lit", v });
          continue;
        }
        try {
          nodes.push(isIntrinsic(v) ? { k: "fn", c: parseIntrinsic(v) } : { k: "path", p: compilePath(v), field: key });
        } catch (err) {
          problems.push((err as Error).message);
          nodes.push({ k: "lit", v });
        }
      } else {
        keys.push(key);
        const n = build(v, key, problems);
        if (n.k !== "lit") dynamic = true;
        nodes.push(n);
      }
    }
    return dynamic ? { k: "obj", keys, nodes } : { k: "lit", v: value };
  }
  return { k: "lit", v: value };
}

function run(node: PNode, roots: PathRoots, missingError: string): unknown {
  switch (node.k) {
    case "lit":
      return node.v;
    case "path": {
      const p = node.p;
      if (p.root.kind === "variable" && !(p.root.name in roots.vars)) {
        throw new StatesError(StatesErrorName.Runtime, `The variable '$${p.root.name}' specified for the field '${node.field}' is not defined.`);
      }
      const root = p.root.kind === "context" ? roots.context : p.root.kind === "variable" ? roots.vars[p.root.name] : roots.input;
      const r = evaluatePath(p, root);
      if (!r.found) {
        throw new StatesError(
          missingError,
          `The JSONPath '${p.source}' specified for the field '${node.field}' could not be found in the input '${JSON.stringify(root)}'`,
        );
      }
      return r.value;
    }
    case "fn":
      return evaluateIntrinsic(node.c, roots);
    case "arr":
      return node.nodes.map((n) => run(n, roots, missingError));
    case "obj": {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < node.keys.length; i++) out[node.keys[i]] = run(node.nodes[i], roots, missingError);
      return out;
    }
  }
}

/**
 * Compiles a payload template. Problems (bad paths, bad intrinsics) are appended to `problems`.
 * `missingError` names the error when a `.$` path matches nothing (AWS: States.Runtime in Pass states).
 */
export function compilePayload(value: unknown, problems: string[], missingError: string = StatesErrorName.ParameterPathFailure): PayloadTemplate {
  const root = build(value, "", problems);
  if (root.k === "lit") {
    const v = root.v;
    return { constant: true, evaluate: () => v };
  }
  return { constant: false, evaluate: (roots) => run(root, roots, missingError) };
}
