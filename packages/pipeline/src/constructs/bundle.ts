import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, parse, relative, resolve } from "node:path";
import { buildSync, version as esbuildVersion } from "esbuild";
import { zipSync } from "fflate";

const built = new Map<string, string>();

/**
 * The package.json condition under which this project's workspace packages name their TypeScript source. Set only
 * while this file itself runs from source (in the project's repository, through tsx or jest): a published install
 * runs the compiled file and bundles the published JavaScript, as a team's own esbuild would.
 */
const SOURCE_CONDITION = "@effectively-once/source";
const conditions = __filename.endsWith(".ts") ? [SOURCE_CONDITION] : [];

/** What a bundle was built from: the build's own settings, and every file it read with its content's hash. */
interface BundleInputs {
  readonly settings: string;
  readonly files: readonly (readonly [path: string, sha256: string])[];
}

const sha256 = (path: string): string | undefined => (existsSync(path) ? createHash("sha256").update(readFileSync(path)).digest("hex") : undefined);

/**
 * The package.json and lock files above each input: module resolution reads the former (`exports`, `main`, a version
 * bump), and an install that moves a package (hoisting) changes the latter.
 */
function packageFiles(inputs: readonly string[]): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  for (const input of inputs) {
    for (let dir = dirname(input); !seen.has(dir) && dir !== parse(dir).root; dir = dirname(dir)) {
      seen.add(dir);
      for (const name of ["package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml"]) {
        const file = join(dir, name);
        if (existsSync(file)) found.add(file);
      }
    }
  }
  return [...found];
}

/** True when `<outDir>/index.js` was built with these settings from files whose content has not changed since. */
function upToDate(outDir: string, manifest: string, settings: string): boolean {
  if (!existsSync(join(outDir, "index.js")) || !existsSync(manifest)) return false;
  try {
    const recorded = JSON.parse(readFileSync(manifest, "utf8")) as BundleInputs;
    return recorded.settings === settings && recorded.files.every(([path, hash]) => sha256(path) === hash);
  } catch {
    return false;
  }
}

/**
 * Bundles a Lambda handler into `<outDir>/index.js` (CommonJS for the runtime's Node version, `target` such as
 * `node22`, every dependency inlined so the deployed code pins the versions tested here). A synth re-bundles only when
 * a file the bundle was built from changed (its content, or a package.json above it), or the settings did: what it
 * was built from is recorded beside the folder (`<outDir>.inputs.json`, not in the deployed archive). Memoized per
 * process too: tests synthesize many stacks.
 */
function bundleHandler(entry: string, outDir: string, target = "node22"): string {
  const key = `${resolve(entry)}→${resolve(outDir)}→${target}`;
  const cached = built.get(key);
  if (cached) return cached;
  const dir = resolve(outDir);
  const manifest = `${dir}.inputs.json`;
  const settings = JSON.stringify({ esbuild: esbuildVersion, entry: resolve(entry), target, conditions, minify: true, keepNames: true });
  if (!upToDate(dir, manifest, settings)) {
    mkdirSync(outDir, { recursive: true });
    const result = buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      target,
      format: "cjs",
      conditions,
      outfile: join(outDir, "index.js"),
      // Minified (about 600 KB instead of 1.5 MB) for faster cold starts; names kept for readable errors.
      minify: true,
      keepNames: true,
      legalComments: "none",
      logLevel: "silent",
      metafile: true,
    });
    if (result.errors.length > 0) {
      throw new Error(`bundling ${entry} failed: ${result.errors.map((e) => e.text).join("; ")}`);
    }
    const inputs = Object.keys(result.metafile?.inputs ?? {}).map((path) => resolve(path));
    const files = [...inputs, ...packageFiles(inputs)].map((path) => [path, sha256(path) ?? ""] as const);
    writeFileSync(manifest, `${JSON.stringify({ settings, files } satisfies BundleInputs)}\n`);
  }
  built.set(key, dir);
  return dir;
}

/** The earliest time a zip entry can carry (1980-01-01, local time, as zip stores it): the archive's bytes are the code's. */
const ZIP_EPOCH = new Date(1980, 0, 1);
/** Each entry a regular file, readable by all (Unix `-rw-r--r--`, made on Unix): what Lambda needs to load it. */
const ZIP_ENTRY = { mtime: ZIP_EPOCH, os: 3, attrs: (0o100644 << 16) >>> 0 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * The function's deployment package: the bundle (bundleHandler) as `<outDir>.zip`, byte for byte the same for the same
 * code (fixed entry times, sorted entries), so its hash, the function's `source_code_hash` and a plan stay quiet until
 * the code changes. Made again only when the bundle changed (`<outDir>.zip.source` records what it was made of).
 */
export function bundleArchive(entry: string, outDir: string, target = "node22"): string {
  const dir = bundleHandler(entry, outDir, target);
  const zipPath = `${dir}.zip`;
  const contents = filesUnder(dir).sort().map((file) => [relative(dir, file).split("\\").join("/"), readFileSync(file)] as const);
  // The archive records what it was made of: an unchanged bundle is not compressed again.
  const made = createHash("sha256");
  for (const [name, bytes] of contents) made.update(name).update("\0").update(bytes).update("\0");
  const source = `${zipPath}.source`;
  const digest = made.digest("hex");
  if (existsSync(zipPath) && existsSync(source) && readFileSync(source, "utf8") === digest) return zipPath;
  const files = Object.fromEntries(contents.map(([name, bytes]) => [name, [new Uint8Array(bytes), ZIP_ENTRY] as [Uint8Array, typeof ZIP_ENTRY]]));
  writeFileSync(zipPath, zipSync(files, { level: 9, mtime: ZIP_EPOCH }));
  writeFileSync(source, digest);
  return zipPath;
}
