// `npm run consumer-check`: packs this package, installs the tarball offline (npm ci from the npm cache) into a fresh
// app outside the repository (test/consumer/shipments: its own key, payload fields, operation and handler), type-checks
// it against the published types, synthesizes it, runs it on the local cloud with duplicates, a conflict, an invalid
// and a refused message, and runs the operator CLI's bin. Uses only the package's public entry points.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..");
const TEMPLATE = join(ROOT, "test/consumer/shipments");

function step<T>(what: string, run: () => T): T {
  const started = Date.now();
  process.stdout.write(`consumer-check: ${what} … `);
  const result = run();
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

function sh(cwd: string, command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? e.message}`);
  }
}

/** The app's lockfile: this package's own resolved production dependencies (so `npm ci --offline` needs only the cache). */
function writeManifest(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const pinned = (name: string) => (pkg.dependencies[name] ?? pkg.devDependencies[name]) as string;
  const dependencies: Record<string, string> = { [pkg.name]: `file:${tarball}` };
  for (const name of ["cdktf", "constructs", "@cdktf/provider-aws", "tsx"]) dependencies[name] = pinned(name);
  const devDependencies = { typescript: pinned("typescript"), "@types/node": pinned("@types/node") };
  const packages: Record<string, unknown> = { "": { name: "shipments", version: "1.0.0", dependencies, devDependencies } };
  for (const [path, entry] of Object.entries<Record<string, unknown>>(lock.packages)) {
    const devOnly = entry.dev === true;
    const wanted = path.startsWith("node_modules/") && (!devOnly || ["node_modules/typescript", "node_modules/@types/node", "node_modules/undici-types"].includes(path));
    if (wanted) packages[path] = devOnly ? { ...entry, dev: true } : entry;
  }
  const integrity = `sha512-${createHash("sha512").update(readFileSync(join(dir, tarball))).digest("base64")}`;
  packages[`node_modules/${pkg.name}`] = { version: pkg.version, resolved: `file:${tarball}`, integrity, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "shipments", version: "1.0.0", private: true, dependencies, devDependencies }, null, 2)}\n`);
  writeFileSync(join(dir, "package-lock.json"), `${JSON.stringify({ name: "shipments", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
}

function main(): void {
  const work = mkdtempSync(join(tmpdir(), "consumer-check-"));
  const app = join(work, "shipments");
  let ok = false;
  try {
    step("npm pack (builds dist/)", () => sh(ROOT, "npm", ["pack", "--silent", "--pack-destination", work]));
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
    cpSync(TEMPLATE, app, { recursive: true });
    cpSync(join(work, tarball), join(app, tarball));
    writeManifest(app, tarball);
    step("npm ci --offline in a fresh app outside the repository", () => sh(app, "npm", ["ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"]));
    step("tsc against the published types", () => sh(app, "npx", ["--no-install", "tsc", "-p", "."]));
    step("synth (npx tsx main.ts)", () => sh(app, "npx", ["--no-install", "tsx", "main.ts"]));
    const report = step("run on the local cloud (npx tsx check.ts)", () => sh(app, "npx", ["--no-install", "tsx", "check.ts"]));
    process.stdout.write(report);
    step("operator CLI bin (npx pipeline-ops --help)", () => sh(app, "npx", ["--no-install", "pipeline-ops", "--help"]));
    ok = true;
  } finally {
    rmSync(work, { recursive: true, force: true });
    console.log(ok ? "consumer-check: PASSED" : "consumer-check: FAILED");
  }
}

main();
