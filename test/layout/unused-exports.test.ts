import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findUnusedExports, groupByFile } from "../../scripts/layout/unused-exports";

const FIXTURE: Record<string, string> = {
  "package.json": JSON.stringify({
    scripts: { go: "tsx cli/run.ts --fast" },
    bin: { tool: "bin/tool.ts" },
    // Compiled paths stand for their sources: dist/pkg/index.js is pkg/index.ts.
    exports: { ".": { types: "./dist/pkg/index.d.ts", default: "./dist/pkg/index.js" }, "./gone": "./dist/gone/index.js" },
  }),
  "pkg/index.ts": "export const pkgOnly = 1;\n",
  "main.ts": "export const app = 1;\n",
  "bin/tool.ts": "export const toolOnly = 1;\n",
  "lib/a.ts": "export const used = 1;\nexport const unused = 2;\nexport function forTests(): number { return used; }\nexport interface Shape { x: number }\n",
  "lib/b.ts": [
    'import { used } from "./a";',
    'import type { Shape } from "./a";',
    'import * as ns from "./ns";',
    "export const b = used + ns.n1;",
    "export const shape: Shape = { x: b };",
    'export const load = () => import("./dynamic");',
    "",
  ].join("\n"),
  "lib/ns.ts": "export const n1 = 1;\nexport const n2 = 2;\n",
  "lib/dynamic.ts": "export const d = 1;\n",
  "lib/index.ts": 'export { used } from "./a";\nexport { b, shape, load } from "./b";\nexport { run } from "./api";\nexport type { RunOptions, Hidden } from "./api";\n',
  // The API rule: a type named in a used export's signature is used with it; a body or a private member is no API.
  "lib/api.ts": [
    'export type Level = "low" | "high";',
    "export interface RunOptions { readonly level: Level }",
    "export interface Hidden { x: number }",
    "export interface Internal { y: number }",
    "export interface Orphan { z: number }",
    "export function run(options: RunOptions): number { const h: Hidden = { x: options.level.length }; return h.x; }",
    "export class Runner { private state?: Internal; go(o: RunOptions): number { return run(o) + (this.state?.y ?? 0); } }",
    "export function unusedFn(o: Orphan): number { return o.z; }",
    "",
  ].join("\n"),
  // The app loader reads `app` from stack.ts and `profile` from profile.ts by a computed path.
  "examples/demo/stack.ts": "export const app = 1;\nexport const extra = 2;\n",
  "examples/demo/profile.ts": "export const profile = 1;\n",
  "lib/stack.ts": 'export const fn = { entry: "lib/handler.ts" };\n',
  "lib/handler.ts": "export const handler = () => 1;\n",
  "cli/run.ts": 'import { b, shape, load, run } from "../lib";\nimport { Runner } from "../lib/api";\nimport { fn } from "../lib/stack";\nexport const cliOnly = [b, shape, load, fn, run, Runner];\n',
  "test/a.test.ts": 'import { forTests } from "../lib/a";\nforTests();\n',
};

describe("Function: findUnusedExports", () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "unused-exports-"));
    for (const [file, text] of Object.entries(FIXTURE)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists exports nothing imports, and apart from them those only tests import", () => {
    // Act
    const report = findUnusedExports(root);

    // Assert: a type-only import, a namespace import, a dynamic import and an import through an index all count;
    // so do types a used export's signature names (RunOptions, and Level through it; the barrel's RunOptions too)
    expect(groupByFile(report.unused)).toEqual([
      "  examples/demo/stack.ts: extra",
      "  lib/a.ts: unused",
      "  lib/api.ts: Hidden, Internal, Orphan, unusedFn",
      "  lib/index.ts: Hidden, used",
    ]);
    expect(groupByFile(report.testOnly)).toEqual(["  lib/a.ts: forTests"]);
  });

  it("treats main.ts, package.json's bin, exports and scripts, and files named by path as roots", () => {
    expect(findUnusedExports(root).roots).toEqual(["bin/tool.ts", "cli/run.ts", "lib/handler.ts", "main.ts", "pkg/index.ts"]);
  });

  it("reports a package.json entry whose source is missing", () => {
    expect(findUnusedExports(root).dangling).toEqual([{ field: 'exports["./gone"]', written: "./dist/gone/index.js", source: "gone/index.ts" }]);
  });
});
