import { join } from "node:path";
import ts from "typescript";
import pkg from "../../package.json";

const ROOT = join(__dirname, "../..");

/** The source of each entry in package.json `exports` (`./dist/local/index.js` → `local/index.ts`). */
function entrySources(): [string, string][] {
  return Object.entries(pkg.exports as Record<string, string | { default: string }>)
    .filter(([, target]) => typeof target === "object")
    .map(([entry, target]) => [entry, (target as { default: string }).default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")]);
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
  expect(entrySources().map(([entry]) => entry)).toEqual([".", "./handler", "./local", "./harness"]);
});
