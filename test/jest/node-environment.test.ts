import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Each case runs in a fresh Node process: the environment copies the globals of the process that loads it, and Node
// ≥ 25's own `localStorage` getter warns once per process. Counting getters stand in for Node's, so that the count
// is the same on every Node version (Node 20 has no such global).
const PROBE = `
const reads = [0, 0];
["localStorage", "sessionStorage"].forEach((name, i) => Object.defineProperty(globalThis, name, { configurable: true, enumerable: false, get() { reads[i] += 1; return undefined; }, set() {} }));
const loaded = require(process.argv[2]);
const Environment = loaded.TestEnvironment ?? loaded;
const env = new Environment({ globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, globals: {}, fakeTimers: {} } }, { console, docblockPragmas: {}, testPath: __filename });
const whileCopying = [...reads];
void env.global.localStorage;
process.stdout.write(JSON.stringify({ whileCopying, afterUse: reads }));
`;

// A script file, not `node -e`: -e also puts Node's modules on the global object, and copying those warns (sys, wasi).
const folder = mkdtempSync(join(tmpdir(), "node-environment-"));
const script = join(folder, "probe.js");
writeFileSync(script, PROBE);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function probe(environment: string): { whileCopying: number[]; afterUse: number[] } {
  return JSON.parse(execFileSync(process.execPath, [script, environment], { encoding: "utf8" })) as { whileCopying: number[]; afterUse: number[] };
}

describe("test/jest/node-environment.js", () => {
  it("leaves localStorage and sessionStorage unread while it builds a test file's context, and reads Node's own on use", () => {
    const { whileCopying, afterUse } = probe(join(__dirname, "node-environment.js"));

    expect(whileCopying).toEqual([0, 0]);
    expect(afterUse).toEqual([1, 0]);
  });

  it("is still needed: jest-environment-node itself reads both (when it stops, remove node-environment.js)", () => {
    const { whileCopying } = probe(require.resolve("jest-environment-node"));

    expect(whileCopying[0]).toBeGreaterThan(0);
    expect(whileCopying[1]).toBeGreaterThan(0);
  });
});
