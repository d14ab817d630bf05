import { join } from "node:path";
import ts from "typescript";
import { readFileSync } from "node:fs";

const ROOT = join(__dirname, "../..");
const PACKAGES = ["pipeline", "local-cloud", "ops"];

/**
 * The source of each public entry in the packages' `exports` (`./dist/src/index.js` → `packages/pipeline/src/index.ts`);
 * `./cdktn` is built from the same source as `.`, `./internal/*` is for the sibling packages only.
 */
function entrySources(): [string, string][] {
  return PACKAGES.flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8")) as { name: string; exports: Record<string, string | { default: string }> };
    return Object.entries(pkg.exports)
      .filter(([entry, target]) => typeof target === "object" && !entry.includes("*") && entry !== "./cdktn")
      .map(([entry, target]): [string, string] => [`${pkg.name}${entry.slice(1)}`, `packages/${dir}/${(target as { default: string }).default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")}`]);
  });
}

/** Exported names of an entry whose declaration carries no TSDoc comment. */
function undocumented(file: string): string[] {
  const program = ts.createProgram([join(ROOT, file)], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, resolveJsonModule: true, esModuleInterop: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(join(ROOT, file))!;
  const missing: string[] = [];
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const documented = (target.declarations ?? []).some((d) => ts.getJSDocCommentsAndTags(d).length > 0 || target.getDocumentationComment(checker).length > 0);
    if (!documented) missing.push(symbol.name);
  }
  return missing;
}

// Everything a consumer imports is documented: every symbol each package entry exports has a TSDoc comment.
describe.each(entrySources())("Package entry %s (%s)", (_entry, file) => {
  it("documents every symbol it exports", () => {
    expect(undocumented(file)).toEqual([]);
  });
});

it("lists the four entries a consumer imports", () => {
  expect(entrySources().map(([entry]) => entry)).toEqual(["@effectively-once/pipeline", "@effectively-once/pipeline/handler", "@effectively-once/local-cloud", "@effectively-once/local-cloud/harness"]);
});
