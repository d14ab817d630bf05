import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "../..");
const PACKAGES = ["pipeline", "local-cloud"];

/** The source file of each public entry with a `types` condition (`./dist/src/index.d.ts` → `packages/<dir>/src/index.ts`). */
function entrySources(): string[] {
  return PACKAGES.flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8")) as { exports: Record<string, string | { default: string }> };
    return Object.entries(pkg.exports)
      .filter(([entry, target]) => typeof target === "object" && !entry.includes("*") && entry !== "./cdktn")
      .map(([, target]) => join(ROOT, "packages", dir, (target as { default: string }).default.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts")));
  });
}

/** `<Interface>.<property>` for every optional property of an exported `*Props` interface without a `@default` tag. */
function optionalPropsWithoutDefault(files: readonly string[], options: ts.CompilerOptions = {}): string[] {
  const program = ts.createProgram([...files], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, resolveJsonModule: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, ...options });
  const checker = program.getTypeChecker();
  const missing = new Set<string>();
  for (const file of files) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!);
    for (const exported of module ? checker.getExportsOfModule(module) : []) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      if (!(symbol.flags & ts.SymbolFlags.Interface) || !symbol.name.endsWith("Props")) continue;
      for (const property of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
        for (const declaration of property.declarations ?? []) {
          if (!ts.isPropertySignature(declaration) || !declaration.questionToken) continue;
          if (!ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "default")) missing.add(`${symbol.name}.${property.name}`);
        }
      }
    }
  }
  return [...missing].sort();
}

describe("Public API: @default on optional props", () => {
  it("every optional property of an exported *Props interface states its default", () => {
    // Arrange
    const files = entrySources();
    // Act
    const missing = optionalPropsWithoutDefault(files);
    // Assert
    expect(missing).toEqual([]);
  });

  it("reports an optional prop without @default, not a required one", () => {
    // Arrange: a props interface like the construct's, one optional prop without its default
    const dir = mkdtempSync(join(tmpdir(), "defaults-probe-"));
    const file = join(dir, "probe.ts");
    writeFileSync(
      file,
      [
        "export interface ProbeProps {",
        "  /** Documented. @default 10 */",
        "  readonly batchSize?: number;",
        "  /** No default stated. */",
        "  readonly tracing?: boolean;",
        "  /** Required: needs no default. */",
        "  readonly namePrefix: string;",
        "}",
        "/** Not a props interface. */",
        "export interface ProbeResult { readonly note?: string }",
      ].join("\n"),
    );
    try {
      // Act
      const missing = optionalPropsWithoutDefault([file]);
      // Assert
      expect(missing).toEqual(["ProbeProps.tracing"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
