import type { LeafValue } from "./types";

/**
 * Flattens an event into dotted leaf paths, the way EventBridge reads events: `{"a": {"b": 1}}` gives
 * `a.b -> [1]`; arrays contribute each element under the same path (so `{"a": [{"b": 1}, {"b": 2}]}` gives
 * `a.b -> [1, 2]`); empty arrays and empty objects give nothing. Because paths are joined with dots, an
 * event key `"a.b"` and a nested `a` -> `b` land on the same path, as they do on AWS.
 */
export function flattenEvent(event: unknown): Map<string, LeafValue[]> {
  const leaves = new Map<string, LeafValue[]>();
  // An explicit stack, not recursion: a body nested thousands of levels deep (legal JSON, which the pipeline itself
  // quarantines) must not overflow the call stack and jam the whole batch on every receive. Children are pushed in
  // reverse so values come out in document order, as a recursive walk gives them.
  const stack: [unknown, string][] = [[event, ""]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], path]);
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], path === "" ? entries[i][0] : `${path}.${entries[i][0]}`]);
    } else if (path !== "") {
      const list = leaves.get(path);
      const leaf = value === undefined ? null : (value as LeafValue);
      if (list) list.push(leaf);
      else leaves.set(path, [leaf]);
    }
  }
  return leaves;
}
