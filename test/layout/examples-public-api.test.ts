import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const ROOT = resolve(__dirname, "../..");
const EXAMPLES = join(ROOT, "examples");
/** The public entries, by package name: what a team's own app may import from the project's published packages. */
const ENTRIES = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { workspaces: string[] }).workspaces.flatMap((dir) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8")) as { name: string; private?: boolean; exports: Record<string, unknown> };
  if (pkg.private) return [];
  return Object.keys(pkg.exports).filter((entry) => !entry.includes("*") && !entry.endsWith(".json")).map((entry) => `${pkg.name}${entry.slice(1)}`);
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file names: imports, `import type`, re-exports, `require(...)` and `import(...)`. */
function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles.map((f) => f.fileName);
}

const FIX = `import a public entry (${ENTRIES.join(", ")}), a file of the same example, or another package`;

/** Why an import breaks the rule, or undefined: another package, a public entry, or a file of the same example. */
function violation(file: string, specifier: string): string | undefined {
  if (specifier.startsWith("@effectively-once/")) return ENTRIES.includes(specifier) ? undefined : `${relative(ROOT, file)} imports "${specifier}", not a public entry: ${FIX}`;
  if (!specifier.startsWith(".") && !specifier.startsWith("/")) return undefined;
  const target = resolve(dirname(file), specifier);
  const example = relative(EXAMPLES, file).split(sep)[0];
  if ((target + sep).startsWith(join(EXAMPLES, example) + sep)) return undefined;
  return `${relative(ROOT, file)} imports "${specifier}" (${relative(ROOT, target)}): ${FIX}`;
}

describe("Layout: examples build only on the public API", () => {
  it("finds the examples' files and their imports (so an empty scan cannot pass)", () => {
    // Act
    const files = sourceFiles(EXAMPLES);

    // Assert
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["examples/payments/stack.ts", "examples/invoices/functions/handler.ts"]));
    expect(specifiersOf(join(EXAMPLES, "payments/functions/handler.ts"))).toEqual(["@effectively-once/pipeline/handler", "./charge"]);
  });

  it.each<[string, string, boolean]>([
    ["examples/payments/stack.ts", "@effectively-once/pipeline", true],
    ["examples/payments/stack.ts", "@effectively-once/pipeline/cdktn", true],
    ["examples/payments/functions/handler.ts", "@effectively-once/pipeline/handler", true],
    ["examples/payments/test/charge.test.ts", "@effectively-once/local-cloud/harness", true],
    ["examples/payments/stack.ts", "../../packages/pipeline/src", false],
    ["examples/payments/identity.ts", "@effectively-once/pipeline/internal/src/contract/canonical", false],
    ["examples/payments/functions/handler.ts", "../identity", true],
    ["examples/payments/test/charge.test.ts", "@aws-sdk/lib-dynamodb", true],
    ["examples/payments/stack.ts", "node:path", true],
    ["examples/payments/functions/charge.ts", "../../../functions/src/effect-journal", false],
    ["examples/payments/test/charge.test.ts", "../../../packages/testing/src/dynalite", false],
    ["examples/invoices/stack.ts", "../payments/identity", false],
  ])("judges %s importing %s: allowed %s", (file, specifier, allowed) => {
    // Act / Assert
    expect(violation(join(ROOT, file), specifier) === undefined).toBe(allowed);
  });

  it("holds for every import in examples/**", () => {
    // Act
    const violations = sourceFiles(EXAMPLES).flatMap((file) => specifiersOf(file).flatMap((specifier) => violation(file, specifier) ?? []));

    // Assert
    expect(violations).toEqual([]);
  });
});

describe("Layout: message profiles stay light", () => {
  // Light tools load `examples/<name>/profile.ts`: it must not pull in cdktf, constructs or the AWS SDK.
  const PROBE = `require(process.argv[1]);
const heavy = Object.keys(require.cache).filter((k) => /node_modules[\\/](cdktf|@cdktf|constructs|@aws-sdk)[\\/]/.test(k));
process.stdout.write(JSON.stringify(heavy));`;
  const examples = readdirSync(EXAMPLES).filter((name) => existsSync(join(EXAMPLES, name, "profile.ts")));

  it("covers every example", () => {
    expect(examples).toEqual(expect.arrayContaining(["invoices", "payments"]));
  });

  it.each(examples)("examples/%s/profile.ts loads no heavy package", (name) => {
    // Act
    const heavy = JSON.parse(execFileSync(process.execPath, ["-r", "tsx/cjs", "-e", PROBE, join(EXAMPLES, name, "profile.ts")], { cwd: ROOT, encoding: "utf8" }));

    // Assert
    expect(heavy).toEqual([]);
  });
});
