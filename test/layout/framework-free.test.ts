/**
 * What each public entry loads at run time, by the static import graph (type-only imports skipped, sibling packages
 * followed through their package.json exports): the entries a Lambda, a CLI, a test harness or a CDK Terrain app
 * load bring no construct framework, and the deploy-side entries no emulator. A stack file pays for cdktf; a
 * function, `pipeline-ops` and a harness test do not, and a CDK Terrain app never loads cdktf.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const SOURCE = "@effectively-once/source";
const FRAMEWORKS = ["cdktf", "cdktn", "constructs", "@cdktf/provider-aws", "@cdktn/provider-aws"];
const EMULATORS = ["dynalite", "fauxqs"];

const WORKSPACES = new Map(
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
    return [pkg.name, { dir, exports: pkg.exports }] as const;
  }),
);

/** The source file of a workspace entry (`@effectively-once/pipeline/settings`), or undefined for another package. */
function entrySource(specifier: string): string | undefined {
  const name = specifier.split("/").slice(0, 2).join("/");
  const ws = WORKSPACES.get(name);
  if (!ws) return undefined;
  const entry = ws.exports[`.${specifier.slice(name.length)}`] as Record<string, string> | undefined;
  if (!entry?.[SOURCE]) throw new Error(`${specifier}: no ${SOURCE} entry`);
  return join(ROOT, ws.dir, entry[SOURCE]);
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return ["", ".ts", "/index.ts", ".js", ".cjs", ".mjs"].map((s) => base + s).find((f) => existsSync(f) && statSync(f).isFile());
}

/** Each file's specifiers, parsed once: the entries share most of their graphs (19 walks of the same files). */
const SPECIFIERS = new Map<string, string[]>();

/** The modules a file loads at run time: imports and re-exports that are not type-only, require() of a literal. */
function runtimeSpecifiers(file: string): string[] {
  const known = SPECIFIERS.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone });
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) {
      const bindings = node.importClause?.namedBindings;
      const onlyTypes = !node.importClause?.name && bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      if (!onlyTypes) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && !node.isTypeOnly) {
      const clause = node.exportClause;
      if (!(clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly))) found.push((node.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require" && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  SPECIFIERS.set(file, found);
  return found;
}

/** Every outside package an entry loads at run time, following the repository's own files and entries. */
function packagesLoadedBy(entry: string): string[] {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const stack = [entrySource(entry)!];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file) || !/\.[cm]?[jt]s$/.test(file)) continue;
    seen.add(file);
    for (const specifier of runtimeSpecifiers(file)) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier);
        if (target) stack.push(target);
      } else if (specifier.startsWith("@effectively-once/")) {
        stack.push(entrySource(specifier)!);
      } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
        packages.add(specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/"));
      }
    }
  }
  return [...packages].sort();
}

const NO_FRAMEWORK = [
  "@effectively-once/contract",
  "@effectively-once/contract/pipe-filter",
  "@effectively-once/statemachines",
  "@effectively-once/functions",
  "@effectively-once/pipeline/handler",
  "@effectively-once/pipeline/settings",
  "@effectively-once/ops",
  "@effectively-once/local-cloud",
  "@effectively-once/local-cloud/harness",
  "@effectively-once/local-cloud/emulators",
  "@effectively-once/local-cloud/sqs-rules",
  "@effectively-once/local-cloud/terraform-json",
];
const NO_EMULATOR = ["@effectively-once/contract", "@effectively-once/statemachines", "@effectively-once/functions", "@effectively-once/pipeline", "@effectively-once/pipeline/settings", "@effectively-once/ops", "@effectively-once/local-cloud/sqs-rules"];

describe("Layout: what each entry loads", () => {
  it("sees a framework where one is loaded (so an empty scan cannot pass)", () => {
    expect(packagesLoadedBy("@effectively-once/pipeline")).toEqual(expect.arrayContaining(["cdktf", "constructs", "esbuild"]));
    expect(packagesLoadedBy("@effectively-once/local-cloud/emulators")).toEqual(expect.arrayContaining(["dynalite"]));
  });

  it.each(NO_FRAMEWORK)("%s loads no construct framework", (entry) => {
    expect(packagesLoadedBy(entry).filter((name) => FRAMEWORKS.includes(name))).toEqual([]);
  });

  it.each(NO_EMULATOR)("%s loads no emulator", (entry) => {
    expect(packagesLoadedBy(entry).filter((name) => EMULATORS.includes(name))).toEqual([]);
  });

  it("covers every published entry but the framework's own", () => {
    const published = [...WORKSPACES].flatMap(([name, ws]) => (name === "@effectively-once/testing" ? [] : Object.keys(ws.exports).filter((e) => e !== "./package.json").map((e) => `${name}${e.slice(1)}`)));
    expect(published.filter((e) => !NO_FRAMEWORK.includes(e)).sort()).toEqual(["@effectively-once/local-cloud/stack", "@effectively-once/pipeline", "@effectively-once/pipeline/cdktn"]);
    expect(relative(ROOT, entrySource("@effectively-once/pipeline/settings")!)).toBe("packages/pipeline/src/settings.ts");
  });
});
