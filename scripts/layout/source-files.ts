// The repository's own source files, walked from disk (not from git, so a new untracked file counts at once).
import fs from "node:fs";
import path from "node:path";

/** Folders never walked: dependencies, build output, and hidden folders (.git, .ci, ...). */
const SKIPPED_DIRS = new Set(["node_modules", "cdktf.out", ".build", "coverage"]);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** A file of the tests: anything under a test/ folder (the root's or a workspace's) and any `*.test.*` file. */
export function isTestFile(relative: string): boolean {
  return /(^|\/)test\//.test(relative) || /\.test\.[cm]?[jt]s$/.test(relative);
}

/** Every .ts/.mts/.cts/.js/.mjs/.cjs file under `root` (declaration files excepted), as POSIX paths relative to it. */
export function listSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) walk(relative);
      } else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        out.push(relative);
      }
    }
  };
  walk("");
  return out.sort();
}

const CANDIDATE_SUFFIXES = ["", ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", "/index.ts", "/index.js"];

/**
 * Resolves a relative module specifier the way Node and TypeScript do for this repository (extensionless, `.js`
 * written for a `.ts` file, folder index). Package specifiers and unknown files give `undefined`.
 */
export function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const bases = /\.[cm]?js$/.test(joined) ? [joined, joined.replace(/\.([cm]?)js$/, ".$1ts")] : [joined];
  for (const base of bases) {
    for (const suffix of CANDIDATE_SUFFIXES) if (files.has(base + suffix)) return base + suffix;
  }
  return undefined;
}
