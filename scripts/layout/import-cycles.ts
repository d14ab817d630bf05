// Import cycles among the non-test source files. Every edge counts: static imports (type-only ones too, since a
// type cycle is still two modules that cannot be understood apart), `export … from`, `require("…")` and
// `import("…")` with a literal. `npm run lint:layout` (check.ts) runs it.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { isTestFile, listSourceFiles, resolveRelative } from "./source-files";

export type ImportGraph = Map<string, Set<string>>;

/** The graph of relative imports between the non-test source files under `root`. */
export function buildImportGraph(root: string): ImportGraph {
  const files = listSourceFiles(root).filter((f) => !isTestFile(f));
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    // preProcessFile scans tokens, so specifiers inside strings and comments are not mistaken for imports.
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = resolveRelative(file, fileName, known);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted, largest first. */
export function findCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return components.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

/** One concrete loop through a component's first file (shortest, by breadth-first search): `a → b → a`. */
export function cyclePath(graph: ImportGraph, component: readonly string[]): string[] {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const loop = [start];
        for (let at = v; at !== start; at = previous.get(at)!) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component, start];
}

/** One line per cycle: the loop, then how many files the component holds. Empty when there is none. */
export function describeCycles(graph: ImportGraph): string[] {
  return findCycles(graph).map((c) => `import cycle (${c.length} files): ${cyclePath(graph, c).join(" → ")}`);
}
