// JSONata expressions that build an object keyed by a computed value: a group-by (`path{ key: value }`) or an
// object constructor whose key is not a string literal. Such a key may be outside text (a body, a key part, a field
// or attribute name), and a plain object keyed by `__proto__` sets its prototype while one keyed by `hasOwnProperty`
// breaks the next lookup. Group by position or with arrays of pairs instead.
import jsonata from "jsonata";

interface Node {
  readonly type?: string;
  readonly value?: unknown;
  readonly position?: number;
  readonly group?: { readonly lhs: readonly (readonly [Node, Node])[] };
  readonly lhs?: unknown;
}

/** Each finding as `<what> at <position>`; none for an expression that keys objects by string literals only. */
export function computedObjectKeys(expression: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const n = node as Node;
    if (n.group) found.push(`group-by at ${n.group.lhs[0]?.[0]?.position ?? n.position}`);
    if (n.type === "unary" && n.value === "{" && Array.isArray(n.lhs)) {
      for (const [key] of n.lhs as [Node, Node][]) if (key.type !== "string") found.push(`object key ${key.type} at ${key.position}`);
    }
    for (const value of Object.values(n)) walk(value);
  };
  walk(jsonata(expression).ast());
  return found;
}

const EXPRESSION = /^\{%([\s\S]*)%\}$/;

/** Every `{% %}` field of a state machine definition that builds objects keyed by computed values, with its path. */
export function definitionObjectKeyFindings(definition: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === "string") {
      const m = EXPRESSION.exec(node.trim());
      if (m) for (const f of computedObjectKeys(m[1])) out.push(`${path}: ${f}`);
    } else if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (node !== null && typeof node === "object") for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
  };
  walk(definition, "");
  return out;
}
