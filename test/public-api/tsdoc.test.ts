import { join } from "node:path";
import ts from "typescript";
import { readFileSync } from "node:fs";

const ROOT = join(__dirname, "../..");

type Exports = Record<string, string | Record<string, string>>;

/**
 * The documented entries, as the API reference lists them (typedoc.json's `entryPoints`), each with the package entry
 * whose source it is (the `@effectively-once/source` condition of the package's `exports`, the one entry map).
 */
function entrySources(): [string, string][] {
  const typedoc = JSON.parse(readFileSync(join(ROOT, "typedoc.json"), "utf8")) as { entryPoints: string[] };
  const workspaces = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces;
  return typedoc.entryPoints.map((file): [string, string] => {
    const dir = workspaces.find((w) => file.startsWith(`${w}/`));
    if (!dir) throw new Error(`${file} is in no workspace`);
    const pkg = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { name: string; exports: Exports };
    const entry = Object.entries(pkg.exports).find(([, target]) => typeof target === "object" && `${dir}/${target["@effectively-once/source"]?.replace(/^\.\//, "")}` === file);
    return [entry ? `${pkg.name}${entry[0].slice(1)}` : `(no entry of ${pkg.name})`, file];
  });
}

/** Exported names of an entry whose declaration carries no TSDoc comment. */
function undocumented(file: string): string[] {
  // The repository's own compiler options: a sibling package resolves to its source (customConditions), as tsc sees it,
  // whether or not its dist/ was built (a fresh clone has none).
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram([join(ROOT, file)], { ...options, noEmit: true });
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

it("documents only published entries (no internal or wildcard entry)", () => {
  const names = entrySources().map(([entry]) => entry);
  expect(names.filter((name) => !name.startsWith("@effectively-once/") || /\*|internal|\(no entry/.test(name))).toEqual([]);
  expect(names).toEqual(expect.arrayContaining(["@effectively-once/pipeline", "@effectively-once/functions", "@effectively-once/local-cloud", "@effectively-once/local-cloud/harness"]));
});
