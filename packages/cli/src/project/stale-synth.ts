import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Folders never part of an app's source: dependencies, VCS and tool state, build output. */
const SKIP = new Set(["node_modules", "dist", "coverage", "tmp"]);
/** What a synth reads: the app's code and its configuration (package-lock.json moves when the construct is upgraded). */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|json)$/;
/** Bounds on the walk, so a huge folder costs milliseconds, not seconds (a deeper or larger tree is not judged). */
const MAX_DEPTH = 4;
const MAX_FILES = 5_000;

/**
 * The newest source file of the project that changed after its synth output was written, or undefined. The tools
 * read an existing synth output rather than synthesize again (as `cdktf deploy` would), so a stale one is said, with
 * the file that makes it stale. Dot-folders and the output folder itself are skipped.
 */
export function newerSource(projectDir: string, output: string, stackFile: string): { file: string; changed: Date } | undefined {
  const synthAt = statSync(stackFile).mtimeMs;
  let seen = 0;
  let newest: { file: string; at: number } | undefined;
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || seen > MAX_FILES) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.name.startsWith(".") || SKIP.has(entry.name) || path === output) continue;
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && SOURCE.test(entry.name) && ++seen <= MAX_FILES) {
        const at = statSync(path).mtimeMs;
        if (at > synthAt && (!newest || at > newest.at)) newest = { file: path, at };
      }
    }
  };
  walk(projectDir, 0);
  return newest && { file: relative(projectDir, newest.file), changed: new Date(newest.at) };
}
