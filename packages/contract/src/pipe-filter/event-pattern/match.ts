import { flattenEvent } from "./flatten";
import { matcherAccepts } from "./match-value";
import type { CompiledPattern, LeafValue, PatternNode } from "./types";

/** Whether `event` (a parsed JSON value) matches the compiled pattern. */
export function matchesEventPattern(pattern: CompiledPattern, event: unknown): boolean {
  return matchesNode(pattern.root, flattenEvent(event));
}

function matchesNode(node: PatternNode, leaves: ReadonlyMap<string, LeafValue[]>): boolean {
  for (const field of node.fields) {
    const values = leaves.get(field.path) ?? [];
    if (!field.matchers.some((m) => matcherAccepts(m, values))) return false;
  }
  return node.orGroups.every((group) => group.some((alternative) => matchesNode(alternative, leaves)));
}
