// `npm run build` (and each package's `prepack`): compiles the workspace packages in dependency order into their
// dist/ folders, copies the files tsc does not emit (worker scripts, JSON read from disk) beside them, the LICENSE
// into each package, and builds the pipeline's CDK Terrain entry (dist/cdktn) from the same output with the
// framework's module names swapped. `node scripts/build/packages.mjs [name...]` builds only the named packages (their
// dependencies must be built).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
/**
 * The published workspaces, by short name, in dependency order: each builds against the declarations of those
 * before it (package.json exports without the source condition: dist/).
 */
const PACKAGES = [
  ["contract", "packages/contract"],
  ["statemachines", "statemachines"],
  ["functions", "functions"],
  ["pipeline", "packages/pipeline"],
  ["local-cloud", "packages/local-cloud"],
  ["ops", "packages/ops"],
  ["cli", "packages/cli"],
];
const NAMES = PACKAGES.map(([name]) => name);
const ASSET = /\.(mjs|cjs|json)$/;
/** What the CDK Terrain build imports instead of cdktf's modules (same classes, same construct tree). */
const FRAMEWORK_MODULES = [
  [/^cdktf$/, "cdktn"],
  [/^@cdktf\/provider-aws(\/.*)?$/, "@cdktn/provider-aws$1"],
];

function walk(dir, visit) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "dist" && name !== "node_modules") walk(path, visit);
    } else visit(path);
  }
}

function copyAssets(pkgDir) {
  let copied = 0;
  // Only what ships: src/ (tests and their fixtures stay home).
  const dir = join(pkgDir, "src");
  if (!existsSync(dir)) return copied;
  walk(dir, (path) => {
    if (!ASSET.test(path)) return;
    const to = join(pkgDir, "dist", relative(pkgDir, path));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(path, to);
    copied += 1;
  });
  return copied;
}

/** Rewrites the module specifiers of one compiled file (`require("…")`, `from "…"`, `import("…")`). */
function rewriteSpecifiers(text, rewrite) {
  return text.replace(/(require\(|from |import\()"([^"]+)"/g, (all, pre, spec) => `${pre}"${rewrite(spec)}"`);
}

/**
 * dist/cdktn/src: dist/src with `cdktf` → `cdktn` and `@cdktf/provider-aws/…` → `@cdktn/provider-aws/…`; relative
 * imports that leave src/ (the handler, the state machine) point back at the shared dist/ files.
 */
function buildCdktnEntry(pkgDir) {
  const from = join(pkgDir, "dist", "src");
  const to = join(pkgDir, "dist", "cdktn", "src");
  rmSync(join(pkgDir, "dist", "cdktn"), { recursive: true, force: true });
  let files = 0;
  walk(from, (path) => {
    const rel = relative(from, path);
    const out = join(to, rel);
    mkdirSync(dirname(out), { recursive: true });
    if (!/\.(js|d\.ts)$/.test(path)) {
      copyFileSync(path, out);
      return;
    }
    const text = rewriteSpecifiers(readFileSync(path, "utf8"), (spec) => {
      for (const [pattern, name] of FRAMEWORK_MODULES) if (pattern.test(spec)) return spec.replace(pattern, name);
      if (!spec.startsWith(".")) return spec;
      const target = posix.normalize(posix.join(posix.dirname(rel.split("\\").join("/")), spec));
      if (!target.startsWith("../")) return spec;
      return posix.relative(posix.dirname(posix.join("cdktn/src", rel)), posix.join("src", target));
    });
    writeFileSync(out, text);
    files += 1;
  });
  return files;
}

function build(name, dir) {
  const started = Date.now();
  const pkgDir = join(ROOT, dir);
  rmSync(join(pkgDir, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(pkgDir, "tsconfig.build.json")], { stdio: "inherit" });
  const assets = copyAssets(pkgDir);
  copyFileSync(join(ROOT, "LICENSE"), join(pkgDir, "LICENSE"));
  const cdktn = name === "pipeline" ? buildCdktnEntry(pkgDir) : 0;
  console.log(`build: ${name}: compiled, ${assets} asset files${cdktn ? `, CDK Terrain entry (${cdktn} files)` : ""} in ${Date.now() - started} ms`);
}

const wanted = process.argv.slice(2);
for (const name of wanted) if (!NAMES.includes(name)) throw new Error(`unknown package "${name}": one of ${NAMES.join(", ")}`);
for (const [name, dir] of PACKAGES) if (wanted.length === 0 || wanted.includes(name)) build(name, dir);
