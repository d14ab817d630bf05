/**
 * The function's deployment package: the same bytes for the same code (so `source_code_hash` and a plan stay quiet),
 * every entry a readable regular file, and a new bundle as soon as a file it was built from changes (the build is
 * reused across processes, so a stale reuse would deploy old code).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
    const a = readFileSync(freshBundler().bundleArchive(entry, join(dir, "a")));
    const b = readFileSync(freshBundler().bundleArchive(entry, join(dir, "b")));
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
    const out = join(dir, "out");
    const first = readFileSync(freshBundler().bundleArchive(entry, out));
    expect(readFileSync(freshBundler().bundleArchive(entry, out)).equals(first)).toBe(true);
    writeFileSync(entry, 'export const handler = async () => "second";\n');
    const second = readFileSync(freshBundler().bundleArchive(entry, out));
    expect(Buffer.from(unzipSync(new Uint8Array(second))["index.js"]!).toString()).toContain('"second"');
  });
});
