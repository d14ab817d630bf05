// Package boundaries: a file reaches another workspace only by its package name and an entry that workspace's
// package.json `exports` lists; no entry is a wildcard or an `internal` door. The repository root (tools, scripts,
// the cross-cutting tests, the examples, main.ts) is one package like the others. A `jest.config.js` may name the
// repository's shared jest.preset.js by path, as a tsconfig `extends` names the root tsconfig.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { listSourceFiles } from "./source-files";

/** A workspace: its folder (POSIX, relative to the root), its package name and the entries its exports list. */
export interface Workspace {
  readonly dir: string;
  readonly name: string;
  readonly entries: readonly string[];
}

export interface BoundaryFinding {
  /** The importing file or the package.json, relative to the root. */
  readonly file: string;
  /** What it names. */
  readonly specifier: string;
  /** Why that crosses a wall, and the fix. */
  readonly why: string;
}

const ROOT_PACKAGE = "the repository root";
const RESOLVABLE = ["", ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json", "/index.ts", "/index.js"];
/** Files that configure tooling, allowed to name the root's shared configuration by path. */
const CONFIG_FILE = /(^|\/)jest\.config\.js$/;

/** The workspaces the root package.json lists, with their entries. */
export function readWorkspaces(root: string): Workspace[] {
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { workspaces?: string[] };
  return (rootPkg.workspaces ?? []).map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8")) as { name: string; exports?: Record<string, unknown> | string };
    const entries = typeof pkg.exports === "object" && pkg.exports !== null ? Object.keys(pkg.exports) : ["."];
    return { dir, name: pkg.name, entries };
  });
}

/** Entries that are doors rather than walls: a wildcard, or anything named internal. */
export function entryFindings(workspaces: readonly Workspace[]): BoundaryFinding[] {
  return workspaces.flatMap((w) =>
    w.entries
      .filter((entry) => entry.includes("*") || /(^|\/)internal(\/|$)/.test(entry))
      .map((entry) => ({ file: `${w.dir}/package.json`, specifier: entry, why: `exports "${entry}", a door into the package's files: export the few things its users need from a named entry` })),
  );
}

function workspaceOf(file: string, workspaces: readonly Workspace[]): Workspace | undefined {
  return workspaces.find((w) => file.startsWith(`${w.dir}/`));
}

function resolveTarget(root: string, from: string, specifier: string): string | undefined {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const bases = /\.[cm]?js$/.test(joined) ? [joined, joined.replace(/\.([cm]?)js$/, ".$1ts")] : [joined];
  for (const base of bases) for (const suffix of RESOLVABLE) if (fs.existsSync(path.join(root, base + suffix)) && fs.statSync(path.join(root, base + suffix)).isFile()) return base + suffix;
  return undefined;
}

/** Why one import crosses a wall, or undefined. */
export function importFinding(root: string, file: string, specifier: string, workspaces: readonly Workspace[]): string | undefined {
  const own = workspaceOf(file, workspaces);
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    if (CONFIG_FILE.test(file)) return undefined;
    const target = resolveTarget(root, file, specifier) ?? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    const theirs = workspaceOf(target, workspaces);
    if (theirs === own) return undefined;
    const fix = theirs ? `import "${theirs.name}" (entries: ${theirs.entries.filter((e) => e !== "./package.json").join(", ")})` : "move the file into this package, or give the root's code a package of its own";
    return `reaches ${theirs ? theirs.name : ROOT_PACKAGE}'s file ${target} by path: ${fix}`;
  }
  const owner = workspaces.find((w) => specifier === w.name || specifier.startsWith(`${w.name}/`));
  if (!owner) return undefined;
  const entry = `.${specifier.slice(owner.name.length)}`;
  if (owner.entries.includes(entry) && !/(^|\/)internal(\/|$)/.test(entry)) return undefined;
  return `names ${owner.name}'s "${entry}", which its package.json does not export: use one of ${owner.entries.filter((e) => e !== "./package.json").join(", ")}`;
}

/** Every import across a wall, and every door in a package.json. */
export function findBoundaryViolations(root: string): BoundaryFinding[] {
  const workspaces = readWorkspaces(root);
  const findings = entryFindings(workspaces);
  for (const file of listSourceFiles(root)) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(root, file), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      const why = importFinding(root, file, fileName, workspaces);
      if (why) findings.push({ file, specifier: fileName, why });
    }
  }
  return findings;
}
