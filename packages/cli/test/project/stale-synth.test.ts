/** A synth output older than the app's source is named (the stack commands then warn instead of reading it silently). */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newerSource } from "../../src/project/stale-synth";

let dir: string;
const stackFile = () => join(dir, "cdktf.out", "stacks", "app", "cdk.tf.json");
const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "stale-synth-"));
  mkdirSync(join(dir, "cdktf.out", "stacks", "app"), { recursive: true });
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "node_modules", "x"), { recursive: true });
  for (const file of ["cdktf.json", "main.ts", "src/stack.ts", "node_modules/x/index.js", "README.md"]) writeFileSync(join(dir, file), "x");
  writeFileSync(stackFile(), "{}");
  for (const file of ["cdktf.json", "main.ts", "src/stack.ts"]) at(join(dir, file), 1_000);
  at(stackFile(), 2_000);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("finds nothing when the synth is newer than every source file", () => {
  expect(newerSource(dir, join(dir, "cdktf.out"), stackFile())).toBeUndefined();
});

it("names the newest source file changed after the synth, nested ones included", () => {
  at(join(dir, "main.ts"), 3_000);
  at(join(dir, "src", "stack.ts"), 4_000);
  expect(newerSource(dir, join(dir, "cdktf.out"), stackFile())).toEqual({ file: join("src", "stack.ts"), changed: new Date(4_000_000) });
});

it("ignores dependencies, the output folder itself and files a synth does not read", () => {
  at(join(dir, "node_modules", "x", "index.js"), 5_000);
  at(join(dir, "README.md"), 5_000);
  writeFileSync(join(dir, "cdktf.out", "manifest.json"), "{}");
  at(join(dir, "cdktf.out", "manifest.json"), 5_000);
  expect(newerSource(dir, join(dir, "cdktf.out"), stackFile())).toBeUndefined();
});
