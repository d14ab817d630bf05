/**
 * The function's deployment package: the same bytes for the same code (so `source_code_hash` and a plan stay quiet),
 * every entry a readable regular file, and a new bundle as soon as a file it was built from changes (the build is
 * reused across processes, so a stale reuse would deploy old code); one build per handler and runtime, however many
 * functions (names) use it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";

/** A fresh copy of the module: its per-process memo empty, as in another synth process. */
function freshBundler(): typeof import("../../src/constructs/bundle") {
  let loaded: typeof import("../../src/constructs/bundle") | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<typeof import("../../src/constructs/bundle")>("../../src/constructs/bundle");
  });
  return loaded!;
}

describe("Function: bundleArchive", () => {
  let dir: string;
  let entry: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bundle-test-"));
    entry = join(dir, "handler.ts");
    writeFileSync(entry, 'export const handler = async () => "first";\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives the same bytes for the same code, built in two folders at two times", () => {
    const a = readFileSync(freshBundler().bundleArchive(entry, join(dir, "a", "fn.zip")));
    const b = readFileSync(freshBundler().bundleArchive(entry, join(dir, "b", "fn.zip")));
    expect(b.equals(a)).toBe(true);
    const files = unzipSync(new Uint8Array(a));
    expect(Object.keys(files)).toEqual(["index.js"]);
    expect(Buffer.from(files["index.js"]!).toString()).toContain('"first"');
    // Central directory entry: made by Unix (byte 5 = 3), external attributes -rw-r--r-- regular file.
    const central = a.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(a[central + 5]).toBe(3);
    expect(a.readUInt32LE(central + 38) >>> 16).toBe(0o100644);
  });

  it("builds again when a file the bundle read changed, and only then", () => {
    const out = join(dir, "out", "fn.zip");
    const first = readFileSync(freshBundler().bundleArchive(entry, out));
    expect(readFileSync(freshBundler().bundleArchive(entry, out)).equals(first)).toBe(true);
    writeFileSync(entry, 'export const handler = async () => "second";\n');
    const second = readFileSync(freshBundler().bundleArchive(entry, out));
    expect(Buffer.from(unzipSync(new Uint8Array(second))["index.js"]!).toString()).toContain('"second"');
  });

  it("bundles a handler once for every function built from it, and apart for another handler or runtime", () => {
    const bundler = freshBundler();
    const builds = (): string[] => readdirSync(join(dir, "out", "bundles"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    const one = readFileSync(bundler.bundleArchive(entry, join(dir, "out", "one.zip")));
    const two = readFileSync(bundler.bundleArchive(entry, join(dir, "out", "two.zip")));
    expect(two.equals(one)).toBe(true);
    expect(builds()).toHaveLength(1);
    const [first] = builds();
    // Another handler of the same file name: its own build and its own code.
    mkdirSync(join(dir, "other"));
    const other = join(dir, "other", "handler.ts");
    writeFileSync(other, 'export const handler = async () => "other";\n');
    const third = readFileSync(bundler.bundleArchive(other, join(dir, "out", "three.zip")));
    expect(Buffer.from(unzipSync(new Uint8Array(third))["index.js"]!).toString()).toContain('"other"');
    expect(builds()).toHaveLength(2);
    bundler.bundleArchive(entry, join(dir, "out", "four.zip"), "node20");
    expect(builds()).toHaveLength(3);
    expect(Buffer.from(unzipSync(new Uint8Array(readFileSync(join(dir, "out", "one.zip"))))["index.js"]!).toString()).toContain('"first"');
    // What a process stopped halfway through a write leaves behind is not part of the bundle.
    writeFileSync(join(dir, "out", "bundles", first!, "index.js.1-0.partial"), "half");
    const five = readFileSync(freshBundler().bundleArchive(entry, join(dir, "out", "five.zip")));
    expect(Object.keys(unzipSync(new Uint8Array(five)))).toEqual(["index.js"]);
  });
});
