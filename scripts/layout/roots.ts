// The entry points of the repository for the unused-exports check: what the outside world reaches without an
// import another source file could show. Whole files (every export is an entry) and single named exports.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A package.json field naming a file that has no source in the repository. */
export interface DanglingEntry {
  /** Where package.json names it: `exports["./harness"].types`, `main`, `scripts.synth`. */
  readonly field: string;
  /** The path as written. */
  readonly written: string;
  /** The source it stands for, which is missing. */
  readonly source: string;
}

/** An export the outside world reaches by name: the app loader requires a computed path and reads one member. */
export interface NamedRoot {
  readonly file: RegExp;
  readonly name: string;
}

/**
 * The app loader (packages/local-cloud/src/stack/apps.ts) loads `examples/<name>/stack` → `app` and `examples/<name>/profile` →
 * `profile`; the simulation loads `examples/<name>/stack` → `simulation`.
 */
export const NAMED_ROOTS: readonly NamedRoot[] = [
  { file: /^examples\/[^/]+\/stack\.ts$/, name: "app" },
  { file: /^examples\/[^/]+\/stack\.ts$/, name: "simulation" },
  { file: /^examples\/[^/]+\/profile\.ts$/, name: "profile" },
];

const TS_FILE = /\.[cm]?ts$/;
const PATH_IN_COMMAND = /(?:^|[\s"'=])((?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]s))(?=$|[\s"'])/g;
const PACKAGE_FIELDS = ["bin", "main", "types", "typings", "exports", "scripts"] as const;

/** The folder every workspace package builds into, and the entry built twice from the same sources (scripts/build/packages.mjs). */
const OUT_DIR = "dist";
const CDKTN_BUILD = "cdktn/";

/** The sources a path of a package.json stands for: itself, and for compiled output the `.ts` it is built from. */
function sourcesOf(written: string, dir: string): string[] {
  const file = path.posix.normalize(written);
  if (!file.startsWith(`${OUT_DIR}/`)) return [path.posix.join(dir, file)];
  let built = file.slice(OUT_DIR.length + 1);
  if (built.startsWith(CDKTN_BUILD)) built = built.slice(CDKTN_BUILD.length);
  const source = path.posix.join(dir, built.replace(/\.d\.([cm]?)ts$/, ".$1ts").replace(/\.([cm]?)js$/, ".$1ts"));
  return [source, source.replace(/\.([cm]?)ts$/, ".$1js")];
}

/** The repository's package.json and each workspace's, as folders relative to the root (`""` for the root). */
function packageDirs(root: string): string[] {
  const file = path.join(root, "package.json");
  if (!fs.existsSync(file)) return [];
  const { workspaces = [] } = JSON.parse(fs.readFileSync(file, "utf8")) as { workspaces?: string[] };
  return ["", ...workspaces.filter((dir) => fs.existsSync(path.join(root, dir, "package.json")))];
}

/**
 * The files each package.json names (bin, main, types, every path in exports, the files its scripts run), each mapped
 * from compiled output back to its source (`./dist/src/index.js` → `packages/pipeline/src/index.ts`), and the names
 * without one.
 */
export function packageRoots(root: string, known: ReadonlySet<string>): { files: string[]; dangling: DanglingEntry[] } {
  const files = new Set<string>();
  const dangling: DanglingEntry[] = [];
  for (const dir of packageDirs(root)) {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, "package.json"), "utf8")) as Record<string, unknown>;
    const collect = (value: unknown, field: string): void => {
      if (value && typeof value === "object") {
        for (const [key, inner] of Object.entries(value)) collect(inner, /^[\w-]+$/.test(key) ? `${field}.${key}` : `${field}["${key}"]`);
        return;
      }
      if (typeof value !== "string") return;
      for (const [, written] of ` ${value}`.matchAll(PATH_IN_COMMAND)) {
        const expected = sourcesOf(written, dir);
        const found = expected.find((f) => known.has(f));
        if (found) files.add(found);
        else dangling.push({ field: dir ? `${dir}/package.json ${field}` : field, written, source: expected[0] });
      }
    };
    for (const field of PACKAGE_FIELDS) collect(pkg[field], field);
  }
  return { files: [...files], dangling };
}

/** Files named by path in a string literal of another source file (`entry: "<folder>/handler.ts"`). */
export function filesNamedByPath(program: ts.Program, sources: readonly string[], root: string, known: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  for (const file of sources) {
    const sourceFile = program.getSourceFile(path.join(root, file));
    if (!sourceFile) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && TS_FILE.test(node.text)) {
        for (const candidate of [path.posix.normalize(node.text), path.posix.join(path.posix.dirname(file), node.text)]) {
          if (known.has(candidate)) found.add(candidate);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return [...found];
}
