import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findUnusedExports, groupByFile } from "../../scripts/layout/unused-exports";

const FIXTURE: Record<string, string> = {
  "package.json": JSON.stringify({ scripts: { go: "tsx cli/run.ts --fast" }, bin: { tool: "bin/tool.ts" } }),
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
  "lib/index.ts": 'export { used } from "./a";\nexport { b, shape, load } from "./b";\n',
  "lib/stack.ts": 'export const fn = { entry: "lib/handler.ts" };\n',
  "lib/handler.ts": "export const handler = () => 1;\n",
  "cli/run.ts": 'import { b, shape, load } from "../lib";\nimport { fn } from "../lib/stack";\nexport const cliOnly = [b, shape, load, fn];\n',
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

    // Assert: a type-only import, a namespace import, a dynamic import and an import through an index all count
    expect(groupByFile(report.unused)).toEqual(["  lib/a.ts: unused", "  lib/index.ts: used"]);
    expect(groupByFile(report.testOnly)).toEqual(["  lib/a.ts: forTests"]);
  });

  it("treats main.ts, package.json's bin and scripts, and files named by path as roots", () => {
    expect(findUnusedExports(root).roots).toEqual(["bin/tool.ts", "cli/run.ts", "lib/handler.ts", "main.ts"]);
  });
});
