import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "../..");
const PACKAGES = ["pipeline", "local-cloud", "ops"];
/** What only the local cloud may bring: the emulators, the TypeScript runner and the local cloud itself. */
const EMULATORS = ["dynalite", "fauxqs", "tsx", "@effectively-once/local-cloud"];

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8")) as Manifest;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["dist", "node_modules", "bin"].includes(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|mjs|cjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The packages a file imports at run time or for its types, by package name (`@scope/name`, `name`). */
function packagesImportedBy(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => !s.startsWith(".") && !s.startsWith("node:") && !builtinModules.includes(s))
    .map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"));
}

/** Every package a workspace package's source names that its package.json does not declare. */
function undeclared(dir: string): string[] {
  const pkg = manifest(dir);
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), "aws-lambda"]);
  const found = new Set(sourceFiles(join(ROOT, "packages", dir)).flatMap(packagesImportedBy));
  return [...found].filter((name) => !declared.has(name)).sort();
}

describe("Layout: what each package ships with", () => {
  it("finds the packages' imports (so an empty scan cannot pass)", () => {
    expect(sourceFiles(join(ROOT, "packages/pipeline")).flatMap(packagesImportedBy)).toEqual(expect.arrayContaining(["cdktf", "constructs", "@aws-lambda-powertools/idempotency"]));
  });

  it.each(PACKAGES)("packages/%s declares every package its source imports", (dir) => {
    expect(undeclared(dir)).toEqual([]);
  });

  it("the deploy package brings no emulator, and the operator CLI no local cloud", () => {
    for (const dir of ["pipeline", "ops"]) expect(Object.keys(manifest(dir).dependencies ?? {}).filter((name) => EMULATORS.includes(name))).toEqual([]);
  });

  it("takes both frameworks as optional peers, never as dependencies (one construct tree per app)", () => {
    const pkg = manifest("pipeline");
    for (const name of ["cdktf", "cdktn", "@cdktf/provider-aws", "@cdktn/provider-aws"]) {
      expect(pkg.dependencies?.[name]).toBeUndefined();
      expect(pkg.peerDependencies?.[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta?.[name]?.optional).toBe(true);
    }
    expect(pkg.peerDependencies?.constructs).toMatch(/<10\.8\.0/); // cdktn 0.24 needs constructs below 10.8.0
  });

  it("the siblings depend on the pipeline package at exactly their own version (they share its contract)", () => {
    const { version } = manifest("pipeline");
    for (const dir of ["local-cloud", "ops"]) {
      expect(manifest(dir).version).toBe(version);
      expect(manifest(dir).dependencies?.["@effectively-once/pipeline"]).toBe(version);
    }
  });
});
