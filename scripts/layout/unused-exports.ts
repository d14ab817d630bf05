// Exported symbols of the non-test source files that no other file imports. A symbol only test files import is
// "exported for tests": allowed, and listed apart so a reviewer sees it. Roots (entry points) export to the
// outside world and are not checked: main.ts, scripts/, the files package.json names (bin, main, exports, the
// paths in its scripts) and files another source file names by path in a string (a Lambda handler's `entry`).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { isTestFile, listSourceFiles } from "./source-files";

export interface UnusedExport {
  readonly file: string;
  readonly name: string;
}

export interface UnusedExportsReport {
  /** Exports nothing else imports: un-export or delete them. */
  readonly unused: UnusedExport[];
  /** Exports only test files import. */
  readonly testOnly: UnusedExport[];
  /** The files treated as roots, for the record. */
  readonly roots: string[];
}

const TS_FILE = /\.[cm]?ts$/;
const PATH_IN_COMMAND = /(?:^|[\s"'=])((?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\.(?:[cm]?[jt]s))(?=$|[\s"'])/g;

function packageRoots(root: string): string[] {
  const file = path.join(root, "package.json");
  if (!fs.existsSync(file)) return [];
  const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") texts.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  [pkg.bin, pkg.main, pkg.types, pkg.exports, pkg.scripts].forEach(collect);
  return texts.flatMap((text) => [...` ${text}`.matchAll(PATH_IN_COMMAND)].map((m) => path.posix.normalize(m[1])));
}

/** Files named by path in a string literal of another source file (`entry: "functions/x/handler.ts"`). */
function filesNamedByPath(program: ts.Program, sources: readonly string[], root: string, known: ReadonlySet<string>): string[] {
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

function compilerOptions(root: string): ts.CompilerOptions {
  const configFile = path.join(root, "tsconfig.json");
  const base: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, esModuleInterop: true, resolveJsonModule: true, skipLibCheck: true, noEmit: true, types: [] };
  if (!fs.existsSync(configFile)) return base;
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config ?? {}, ts.sys, root);
  return { ...base, ...parsed.options, noEmit: true };
}

export function findUnusedExports(root: string): UnusedExportsReport {
  const all = listSourceFiles(root).filter((f) => TS_FILE.test(f));
  const known = new Set(all);
  const options = compilerOptions(root);
  const program = ts.createProgram(all.map((f) => path.join(root, f)), options);
  const checker = program.getTypeChecker();
  const relative = (sourceFile: ts.SourceFile) => path.relative(root, sourceFile.fileName).split(path.sep).join("/");

  const sources = all.filter((f) => !isTestFile(f));
  const roots = new Set([...packageRoots(root), ...filesNamedByPath(program, sources, root, known)].filter((f) => known.has(f)));
  for (const f of sources) if (f === "main.ts" || f.startsWith("scripts/")) roots.add(f);

  // Who uses each export: a symbol maps to whether a non-test file and whether a test file imports it.
  const users = new Map<ts.Symbol, { source: boolean; test: boolean }>();
  const canonical = (symbol: ts.Symbol) => checker.getExportSymbolOfSymbol(symbol);
  const markChain = (start: ts.Symbol | undefined, user: string): void => {
    for (let s = start, hops = 0; s && hops < 20; hops++) {
      const key = canonical(s);
      const entry = users.get(key) ?? { source: false, test: false };
      if (isTestFile(user)) entry.test = true;
      else entry.source = true;
      users.set(key, entry);
      s = s.flags & ts.SymbolFlags.Alias ? checker.getImmediateAliasedSymbol(s) : undefined;
    }
  };
  const moduleOf = (specifier: string, from: ts.SourceFile): ts.Symbol | undefined => {
    const resolved = ts.resolveModuleName(specifier, from.fileName, options, ts.sys).resolvedModule;
    const target = resolved && program.getSourceFile(resolved.resolvedFileName);
    return target && checker.getSymbolAtLocation(target);
  };
  const markModule = (specifier: string, from: ts.SourceFile, user: string): void => {
    const moduleSymbol = moduleOf(specifier, from);
    if (moduleSymbol) for (const s of checker.getExportsOfModule(moduleSymbol)) markChain(s, user);
  };

  for (const file of all) {
    const sourceFile = program.getSourceFile(path.join(root, file));
    if (!sourceFile) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        if (clause?.name) markChain(checker.getSymbolAtLocation(clause.name), file);
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const spec of bindings.elements) markChain(checker.getSymbolAtLocation(spec.name), file);
        if (bindings && ts.isNamespaceImport(bindings)) markModule(node.moduleSpecifier.text, sourceFile, file);
      } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
        markModule(node.moduleReference.expression.text, sourceFile, file);
      } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
        // require("./x") and import("./x"): which members are read is not tracked, so all count as used.
        const callee = node.expression;
        if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) markModule(node.arguments[0].text, sourceFile, file);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        markModule(node.argument.literal.text, sourceFile, file);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }

  const unused: UnusedExport[] = [];
  const testOnly: UnusedExport[] = [];
  for (const file of sources) {
    if (roots.has(file)) continue;
    const sourceFile = program.getSourceFile(path.join(root, file));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (!moduleSymbol) continue;
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      // Members of `export * from` belong to the file that declares them.
      const declaration = symbol.declarations?.[0];
      if (!declaration || relative(declaration.getSourceFile()) !== file) continue;
      const use = users.get(canonical(symbol));
      const entry = { file, name: symbol.getName() };
      if (!use) unused.push(entry);
      else if (!use.source) testOnly.push(entry);
    }
  }
  return { unused, testOnly, roots: [...roots].sort() };
}

/** `file: a, b` lines, one per file. */
export function groupByFile(entries: readonly UnusedExport[]): string[] {
  const byFile = new Map<string, string[]>();
  for (const e of entries) byFile.set(e.file, [...(byFile.get(e.file) ?? []), e.name]);
  return [...byFile].sort(([a], [b]) => a.localeCompare(b)).map(([file, names]) => `  ${file}: ${names.sort().join(", ")}`);
}
