import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "../..");
/** What only the local cloud may bring: the emulators, the TypeScript runner and the local cloud itself. */
const EMULATORS = ["dynalite", "fauxqs", "tsx", "@effectively-once/local-cloud"];
/** The frameworks a construct library takes as peers; code that runs in a Lambda or a CLI needs none of them. */
const FRAMEWORKS = ["cdktf", "cdktn", "constructs", "@cdktf/provider-aws", "@cdktn/provider-aws"];

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const WORKSPACES = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as Manifest;
const PUBLISHED = WORKSPACES.filter((dir) => !manifest(dir).private);
const dirOf = (name: string): string => WORKSPACES.find((dir) => manifest(dir).name === name) ?? name;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["dist", "node_modules"].includes(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|mjs|cjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** What a workspace ships (its src/; a bin/ launcher loads tsx only inside the repository), and its tests (test/). */
const shipped = (dir: string): string[] => sourceFiles(join(ROOT, dir, "src"));
const tests = (dir: string): string[] => sourceFiles(join(ROOT, dir, "test"));

/** The packages a file imports at run time or for its types, by package name (`@scope/name`, `name`). */
function packagesImportedBy(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((s) => !s.startsWith(".") && !s.startsWith("node:") && !builtinModules.includes(s))
    .map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"));
}

/** Every package a workspace's shipped source names that its package.json does not declare. */
function undeclared(dir: string): string[] {
  const pkg = manifest(dir);
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), "aws-lambda"]);
  const found = new Set(shipped(dir).flatMap(packagesImportedBy));
  return [...found].filter((name) => !declared.has(name)).sort();
}

/** The workspaces a workspace's tests use by name that its package.json declares neither as a dependency nor a dev dependency. */
function undeclaredInTests(dir: string): string[] {
  const pkg = manifest(dir);
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), pkg.name]);
  const found = new Set(tests(dir).flatMap(packagesImportedBy).filter((name) => name.startsWith("@effectively-once/")));
  return [...found].filter((name) => !declared.has(name)).sort();
}

describe("Layout: what each package ships with", () => {
  it("finds the packages' imports (so an empty scan cannot pass)", () => {
    expect(shipped("packages/pipeline").flatMap(packagesImportedBy)).toEqual(expect.arrayContaining(["cdktf", "constructs", "@effectively-once/functions"]));
    expect(shipped("functions").flatMap(packagesImportedBy)).toEqual(expect.arrayContaining(["@aws-lambda-powertools/idempotency", "@effectively-once/contract"]));
    expect(tests("packages/ops").flatMap(packagesImportedBy)).toEqual(expect.arrayContaining(["@effectively-once/testing"]));
  });

  it.each(PUBLISHED)("%s declares every package its source imports", (dir) => {
    expect(undeclared(dir)).toEqual([]);
  });

  it.each(PUBLISHED)("%s depends on no sibling its source does not import", (dir) => {
    const imported = new Set(shipped(dir).flatMap(packagesImportedBy));
    expect(Object.keys(manifest(dir).dependencies ?? {}).filter((name) => name.startsWith("@effectively-once/") && !imported.has(name))).toEqual([]);
  });

  it.each(WORKSPACES)("%s declares the workspaces its tests use (dependencies or devDependencies)", (dir) => {
    expect(undeclaredInTests(dir)).toEqual([]);
  });

  it("the deploy packages bring no emulator, and the operator CLI no local cloud", () => {
    for (const name of ["@effectively-once/contract", "@effectively-once/statemachines", "@effectively-once/functions", "@effectively-once/pipeline", "@effectively-once/ops"]) {
      expect(Object.keys(manifest(dirOf(name)).dependencies ?? {}).filter((dep) => EMULATORS.includes(dep))).toEqual([]);
    }
  });

  it("the contract, the state machine, the function and the operator CLI bring no framework, and the contract depends on no sibling", () => {
    for (const name of ["@effectively-once/contract", "@effectively-once/statemachines", "@effectively-once/functions", "@effectively-once/ops"]) {
      const pkg = manifest(dirOf(name));
      expect([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})].filter((dep) => FRAMEWORKS.includes(dep))).toEqual([]);
    }
    expect(Object.keys(manifest("packages/contract").dependencies ?? {}).filter((dep) => dep.startsWith("@effectively-once/"))).toEqual([]);
    expect(Object.keys(manifest("packages/ops").dependencies ?? {}).filter((dep) => dep.startsWith("@effectively-once/"))).toEqual(["@effectively-once/contract"]);
  });

  it("takes both frameworks as optional peers, never as dependencies (one construct tree per app)", () => {
    const pkg = manifest("packages/pipeline");
    for (const name of ["cdktf", "cdktn", "@cdktf/provider-aws", "@cdktn/provider-aws"]) {
      expect(pkg.dependencies?.[name]).toBeUndefined();
      expect(pkg.peerDependencies?.[name]).toBeDefined();
      expect(pkg.peerDependenciesMeta?.[name]?.optional).toBe(true);
    }
    expect(pkg.peerDependencies?.constructs).toMatch(/<10\.8\.0/); // cdktn 0.24 needs constructs below 10.8.0
  });

  it("the published packages share one version and depend on each other at exactly it (they share the contract)", () => {
    const { version } = manifest("packages/pipeline");
    for (const dir of PUBLISHED) {
      const pkg = manifest(dir);
      expect(pkg.version).toBe(version);
      for (const [dep, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
        if (dep.startsWith("@effectively-once/") && PUBLISHED.includes(dirOf(dep))) expect(`${pkg.name} → ${dep}@${range}`).toBe(`${pkg.name} → ${dep}@${version}`);
      }
    }
  });
});
