// Exported symbols of the non-test source files that no other file uses. A symbol only test files use is
// "exported for tests": allowed, and listed apart so a reviewer sees it. Roots (entry points, roots.ts) export to
// the outside world and are not checked: main.ts, scripts/, the files package.json names (compiled paths mapped
// back to their sources), files another source file names by path in a string (a Lambda handler's `entry`), and
// the named exports the app loader reads. An export is used when a file imports it, or when it is part of the
// API of a used export (api-surface.ts): a type its declaration names, counted in the file declaring the type and
// in a file re-exporting both (a barrel that exports a function and its options interface).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { surfaceTypeNames } from "./api-surface";
import { filesNamedByPath, NAMED_ROOTS, packageRoots, type DanglingEntry } from "./roots";
import { isTestFile, listSourceFiles } from "./source-files";

export interface UnusedExport {
  readonly file: string;
  readonly name: string;
}

export interface UnusedExportsReport {
  /** Exports nothing else uses: un-export or delete them. */
  readonly unused: UnusedExport[];
  /** Exports only test files use. */
  readonly testOnly: UnusedExport[];
  /** Re-exports (a barrel's `export { x } from`) only tests use: the tests can import the file that declares them. */
  readonly reExportedForTests: UnusedExport[];
  /** The files treated as roots, for the record. */
  readonly roots: string[];
  /** package.json fields naming a file with no source: a broken entry point. */
  readonly dangling: DanglingEntry[];
}

interface Use {
  source: boolean;
  test: boolean;
}

const TS_FILE = /\.[cm]?ts$/;
const SOURCE_USE: Use = { source: true, test: false };

function compilerOptions(root: string): ts.CompilerOptions {
  const configFile = path.join(root, "tsconfig.json");
  const base: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true, resolveJsonModule: true, skipLibCheck: true, noEmit: true, types: [] };
  if (!fs.existsSync(configFile)) return base;
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, root);
  return { ...base, ...parsed.options, noEmit: true };
}

export function findUnusedExports(root: string): UnusedExportsReport {
  const everything = listSourceFiles(root);
  const all = everything.filter((f) => TS_FILE.test(f));
  const known = new Set(all);
  const options = compilerOptions(root);
  const program = ts.createProgram(all.map((f) => path.join(root, f)), options);
  const checker = program.getTypeChecker();
  const relative = (sourceFile: ts.SourceFile) => path.relative(root, sourceFile.fileName).split(path.sep).join("/");

  const sources = all.filter((f) => !isTestFile(f));
  const fromPackage = packageRoots(root, new Set(everything));
  const roots = new Set([...fromPackage.files, ...filesNamedByPath(program, sources, root, known)].filter((f) => known.has(f)));
  for (const f of sources) if (f === "main.ts" || f.startsWith("scripts/")) roots.add(f);

  // Who uses each export: a symbol maps to whether a non-test file and whether a test file uses it.
  const users = new Map<ts.Symbol, Use>();
  const canonical = (symbol: ts.Symbol) => checker.getExportSymbolOfSymbol(symbol);
  const target = (symbol: ts.Symbol) => canonical(symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  /** Marks a symbol and every alias hop behind it; true when that added a kind of use. */
  const markChain = (start: ts.Symbol | undefined, use: Use): boolean => {
    let added = false;
    for (let s = start, hops = 0; s && hops < 20; hops++) {
      const key = canonical(s);
      const entry = users.get(key) ?? { source: false, test: false };
      if ((use.source && !entry.source) || (use.test && !entry.test)) added = true;
      users.set(key, { source: entry.source || use.source, test: entry.test || use.test });
      s = s.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(s) : undefined;
    }
    return added;
  };
  const useBy = (file: string): Use => ({ source: !isTestFile(file), test: isTestFile(file) });
  const moduleOf = (specifier: string, from: ts.SourceFile): ts.Symbol | undefined => {
    const resolved = ts.resolveModuleName(specifier, from.fileName, options, ts.sys).resolvedModule;
    const file = resolved && program.getSourceFile(resolved.resolvedFileName);
    return file && checker.getSymbolAtLocation(file);
  };
  const markModule = (specifier: string, from: ts.SourceFile, use: Use): void => {
    const moduleSymbol = moduleOf(specifier, from);
    if (moduleSymbol) for (const s of checker.getExportsOfModule(moduleSymbol)) markChain(s, use);
  };
  const exportsOf = (file: string): ts.Symbol[] => {
    const sourceFile = program.getSourceFile(path.join(root, file));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    return moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  };

  for (const file of all) {
    const sourceFile = program.getSourceFile(path.join(root, file));
    if (!sourceFile) continue;
    const use = useBy(file);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        if (clause?.name) markChain(checker.getSymbolAtLocation(clause.name), use);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const spec of bindings.elements) markChain(checker.getSymbolAtLocation(spec.name), use);
        if (bindings && ts.isNamespaceImport(bindings)) markModule(node.moduleSpecifier.text, sourceFile, use);
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
        markModule(node.moduleReference.expression.text, sourceFile, use);
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
        // require("./<module>") and import("./<module>"): which members are read is not tracked, so all count as used.
        const callee = node.expression;
        if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) markModule(node.arguments[0].text, sourceFile, use);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        markModule(node.argument.literal.text, sourceFile, use);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }

  // Roots export to the outside world: all of a root file's exports, and the named roots, are used.
  for (const file of roots) for (const s of exportsOf(file)) markChain(s, SOURCE_USE);
  for (const file of sources) {
    for (const s of exportsOf(file)) if (NAMED_ROOTS.some((r) => r.file.test(file) && r.name === s.getName())) markChain(s, SOURCE_USE);
  }

  // The API rule, to a fixed point: a used export's surface uses the types it names (and a re-export of them).
  const exported = sources.map((file) => exportsOf(file));
  for (let changed = true; changed; ) {
    changed = false;
    for (const symbols of exported) {
      const named = new Map<ts.Symbol, Use>();
      for (const s of symbols) {
        const use = users.get(canonical(s));
        if (!use) continue;
        for (const declaration of target(s).declarations ?? []) {
          for (const id of surfaceTypeNames(declaration)) {
            const referenced = checker.getSymbolAtLocation(id);
            if (!referenced) continue;
            changed = markChain(referenced, use) || changed;
            const key = target(referenced);
            const seen = named.get(key) ?? { source: false, test: false };
            named.set(key, { source: seen.source || use.source, test: seen.test || use.test });
          }
        }
      }
      for (const s of symbols) {
        const use = named.get(target(s));
        if (use) changed = markChain(s, use) || changed;
      }
    }
  }

  const unused: UnusedExport[] = [];
  const testOnly: UnusedExport[] = [];
  const reExportedForTests: UnusedExport[] = [];
  for (const file of sources) {
    if (roots.has(file)) continue;
    for (const symbol of exportsOf(file)) {
      // Members of `export * from` belong to the file that declares them.
      const declaration = symbol.declarations?.[0];
      if (!declaration || relative(declaration.getSourceFile()) !== file) continue;
      const use = users.get(canonical(symbol));
      const entry = { file, name: symbol.getName() };
      if (!use) unused.push(entry);
      else if (!use.source && symbol.flags & ts.SymbolFlags.Alias) reExportedForTests.push(entry);
      else if (!use.source) testOnly.push(entry);
    }
  }
  return { unused, testOnly, reExportedForTests, roots: [...roots].sort(), dangling: fromPackage.dangling };
}

/** `file: a, b` lines, one per file. */
export function groupByFile(entries: readonly UnusedExport[]): string[] {
  const byFile = new Map<string, string[]>();
  for (const e of entries) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e.name]);
  return [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, names]) => `  ${file}: ${names.sort().join(", ")}`);
}
