import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, parse, relative, resolve } from "node:path";
import { threadId } from "node:worker_threads";
import { buildSync, version as esbuildVersion } from "esbuild";
import { zipSync } from "fflate";

const built = new Map<string, string>();
/** Each bundle folder's zip, made (or found up to date) once per process. */
const zipped = new Map<string, Buffer>();

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

/** The end of a file still being written (writeWhole): never part of a bundle. */
const PARTIAL = ".partial";

/**
 * Writes through a file of this process's own, renamed into place: another process (a parallel synth, a test worker)
 * reading the same build sees the old file or the new one, never a part.
 */
function writeWhole(path: string, data: string | Uint8Array): void {
  const partial = `${path}.${process.pid}-${threadId}${PARTIAL}`;
  writeFileSync(partial, data);
  renameSync(partial, path);
}

/**
 * The folder of an entry's bundle under `buildRoot`: named for the entry file and a hash of its path and of the
 * settings that shape the output, so every function built from one handler with one runtime shares one build.
 */
function bundleFolder(entry: string, buildRoot: string, target: string): string {
  const id = createHash("sha256").update(JSON.stringify([resolve(entry), target, conditions])).digest("hex").slice(0, 16);
  return join(resolve(buildRoot), "bundles", `${parse(entry).name}-${id}`);
}

/**
 * Bundles a Lambda handler into `<dir>/index.js` (CommonJS for the runtime's Node version, `target` such as
 * `node22`, every dependency inlined so the deployed code pins the versions tested here). A synth re-bundles only when
 * a file the bundle was built from changed (its content, or a package.json above it), or the settings did: what it
 * was built from is recorded beside the folder (`<dir>.inputs.json`, not in the deployed archive). Memoized per
 * process too: tests synthesize many stacks.
 */
function bundleHandler(entry: string, dir: string, target: string): string {
  const key = `${resolve(entry)}→${dir}→${target}`;
  const cached = built.get(key);
  if (cached) return cached;
  const manifest = `${dir}.inputs.json`;
  const settings = JSON.stringify({ esbuild: esbuildVersion, entry: resolve(entry), target, conditions, minify: true, keepNames: true });
  if (!upToDate(dir, manifest, settings)) {
    mkdirSync(dir, { recursive: true });
    const result = buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      target,
      format: "cjs",
      conditions,
      outfile: join(dir, "index.js"),
      write: false,
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
    for (const file of result.outputFiles) writeWhole(file.path, file.contents);
    const inputs = Object.keys(result.metafile?.inputs ?? {}).map((path) => resolve(path));
    const files = [...inputs, ...packageFiles(inputs)].map((path) => [path, sha256(path) ?? ""] as const);
    writeWhole(manifest, `${JSON.stringify({ settings, files } satisfies BundleInputs)}\n`);
  }
  built.set(key, dir);
  return dir;
}

/** The earliest time a zip entry can carry (1980-01-01, local time, as zip stores it): the archive's bytes are the code's. */
const ZIP_EPOCH = new Date(1980, 0, 1);
/** Each entry a regular file, readable by all (Unix `-rw-r--r--`, made on Unix): what Lambda needs to load it. */
const ZIP_ENTRY = { mtime: ZIP_EPOCH, os: 3, attrs: (0o100644 << 16) >>> 0 };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.endsWith(PARTIAL))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * The bundle (bundleHandler) as `<dir>.zip`, byte for byte the same for the same code (fixed entry times, sorted
 * entries), so its hash, the function's `source_code_hash` and a plan stay quiet until the code changes. Made again
 * only when the bundle changed (`<dir>.zip.source` records what it was made of).
 */
function zipBundle(dir: string): Buffer {
  const zipPath = `${dir}.zip`;
  const contents = filesUnder(dir).sort().map((file) => [relative(dir, file).split("\\").join("/"), readFileSync(file)] as const);
  // The archive records what it was made of: an unchanged bundle is not compressed again.
  const made = createHash("sha256");
  for (const [name, bytes] of contents) made.update(name).update("\0").update(bytes).update("\0");
  const source = `${zipPath}.source`;
  const digest = made.digest("hex");
  if (existsSync(zipPath) && existsSync(source) && readFileSync(source, "utf8") === digest) return readFileSync(zipPath);
  const files = Object.fromEntries(contents.map(([name, bytes]) => [name, [new Uint8Array(bytes), ZIP_ENTRY] as [Uint8Array, typeof ZIP_ENTRY]]));
  const zip = Buffer.from(zipSync(files, { level: 9, mtime: ZIP_EPOCH }));
  writeWhole(zipPath, zip);
  writeWhole(source, digest);
  return zip;
}

/**
 * The function's deployment package at `archive` (`<folder>/<function name>.zip`: the name is part of the synthesized
 * asset path). Bundled and zipped once per handler entry and runtime, in `<folder>/bundles/`; each function's archive
 * is a copy of that zip, written only when its bytes differ.
 */
export function bundleArchive(entry: string, archive: string, target = "node22"): string {
  const dir = bundleHandler(entry, bundleFolder(entry, dirname(archive), target), target);
  const zip = zipped.get(dir) ?? zipBundle(dir);
  zipped.set(dir, zip);
  const path = resolve(archive);
  if (!existsSync(path) || !readFileSync(path).equals(zip)) writeWhole(path, zip);
  return path;
}
