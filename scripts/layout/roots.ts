// The entry points of the repository for the unused-exports check: what the outside world reaches without an
// import another source file could show. Whole files (every export is an entry) and single named exports.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** A package.json field naming a file that has no source in the repository. */
export interface DanglingEntry {
  /** Where package.json names it: `exports["./local"].types`, `main`, `scripts.synth`. */
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

/** tools/stack/apps.ts loads `examples/<name>/stack` → `app` and `examples/<name>/profile` → `profile`. */
export const NAMED_ROOTS: readonly NamedRoot[] = [
  { file: /^examples\/[^/]+\/stack\.ts$/, name: "app" },
  { file: /^examples\/[^/]+\/profile\.ts$/, name: "profile" },
];

const TS_FILE = /\.[cm]?ts$/;
const PATH_IN_COMMAND = /(?:^|[\s"'=])((?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]s))(?=$|[\s"'])/g;
const PACKAGE_FIELDS = ["bin", "main", "types", "typings", "exports", "scripts"] as const;

/** The build's output folder (tsconfig.build.json's `outDir` relative to its `rootDir`), `dist` by default. */
function outDir(root: string): string {
  const file = path.join(root, "tsconfig.build.json");
  if (!fs.existsSync(file)) return "dist";
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, root).options;
  if (!options.outDir) return "dist";
  return path.relative(options.rootDir ?? root, options.outDir).split(path.sep).join("/");
}

/** The sources a path of package.json stands for: itself, and for compiled output the `.ts` it is built from. */
function sourcesOf(written: string, out: string): string[] {
  const file = path.posix.normalize(written);
  if (!file.startsWith(`${out}/`)) return [file];
  const source = file.slice(out.length + 1).replace(/\.d\.([cm]?)ts$/, ".$1ts").replace(/\.([cm]?)js$/, ".$1ts");
  return [source, source.replace(/\.([cm]?)ts$/, ".$1js")];
}

/**
 * The files package.json names (bin, main, types, every path in exports, the files its scripts run), each mapped
 * from compiled output back to its source (`./dist/local/index.js` → `local/index.ts`), and the names without one.
 */
export function packageRoots(root: string, known: ReadonlySet<string>): { files: string[]; dangling: DanglingEntry[] } {
  const file = path.join(root, "package.json");
  if (!fs.existsSync(file)) return { files: [], dangling: [] };
  const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  const out = outDir(root);
  const files = new Set<string>();
  const dangling: DanglingEntry[] = [];
  const collect = (value: unknown, field: string): void => {
    if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) collect(inner, /^[\w-]+$/.test(key) ? `${field}.${key}` : `${field}["${key}"]`);
      return;
    }
    if (typeof value !== "string") return;
    for (const [, written] of ` ${value}`.matchAll(PATH_IN_COMMAND)) {
      const expected = sourcesOf(written, out);
      const found = expected.find((f) => known.has(f));
      if (found) files.add(found);
      else dangling.push({ field, written, source: expected[0] });
    }
  };
  for (const field of PACKAGE_FIELDS) collect(pkg[field], field);
  return { files: [...files], dangling };
}

/** Files named by path in a string literal of another source file (`entry: "functions/x/handler.ts"`). */
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
