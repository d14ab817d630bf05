import type { LeafValue } from "./types";

/**
 * Flattens an event into dotted leaf paths, the way EventBridge reads events: `{"a": {"b": 1}}` gives
 * `a.b -> [1]`; arrays contribute each element under the same path (so `{"a": [{"b": 1}, {"b": 2}]}` gives
 * `a.b -> [1, 2]`); empty arrays and empty objects give nothing. Because paths are joined with dots, an
 * event key `"a.b"` and a nested `a` -> `b` land on the same path, as they do on AWS.
 */
export function flattenEvent(event: unknown): Map<string, LeafValue[]> {
  const leaves = new Map<string, LeafValue[]>();
  const visit = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const element of value) visit(element, path);
    } else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) visit(child, path === "" ? key : `${path}.${key}`);
    } else if (path !== "") {
      const list = leaves.get(path);
      const leaf = value === undefined ? null : (value as LeafValue);
      if (list) list.push(leaf);
      else leaves.set(path, [leaf]);
    }
  };
  visit(event, "");
  return leaves;
}
