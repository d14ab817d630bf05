import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findBoundaryViolations } from "../../scripts/layout/boundaries";

/** A repository of two workspaces (`a` depends on `b`) and a root with its own tools. */
const FIXTURE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "repo", private: true, workspaces: ["packages/a", "packages/b"] }),
  "packages/a/package.json": JSON.stringify({ name: "@x/a", exports: { ".": "./src/index.ts" } }),
  "packages/b/package.json": JSON.stringify({ name: "@x/b", exports: { ".": "./src/index.ts", "./parts": "./src/parts.ts", "./package.json": "./package.json" } }),
  "packages/b/src/index.ts": 'export { inner } from "./inner";\n',
  "packages/b/src/parts.ts": "export const part = 1;\n",
  "packages/b/src/inner.ts": "export const inner = 1;\n",
  "packages/b/test/inner.test.ts": 'import { inner } from "../src/inner";\nimport { part } from "@x/b/parts";\nexport const t = [inner, part];\n',
  "packages/a/jest.config.js": 'module.exports = require("../../jest.preset");\n',
  "jest.preset.js": "module.exports = {};\n",
  "tools/helper.ts": "export const helper = 1;\n",
  "tools/use.ts": 'import { helper } from "./helper";\nimport { inner } from "@x/b";\nexport const u = [helper, inner];\n',
};

function repository(extra: Record<string, string> = {}): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "boundaries-"));
  for (const [file, text] of Object.entries({ ...FIXTURE, ...extra })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("Function: findBoundaryViolations", () => {
  const roots: string[] = [];
  const scan = (extra: Record<string, string> = {}) => {
    const root = repository(extra);
    roots.push(root);
    return findBoundaryViolations(root).map((f) => `${f.file} → ${f.specifier}`);
  };
  afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

  it("accepts imports by package name and a listed entry, a package's own files, and the root's own files", () => {
    expect(scan()).toEqual([]);
  });

  it("refuses a sibling's file imported by path, from source and from a test", () => {
    // Act
    const found = scan({
      "packages/a/src/index.ts": 'import { inner } from "../../b/src/inner";\nexport const a = inner;\n',
      "packages/a/test/a.test.ts": 'import { part } from "../../b/src/parts";\nexport const t = part;\n',
    });

    // Assert
    expect(found).toEqual(["packages/a/src/index.ts → ../../b/src/inner", "packages/a/test/a.test.ts → ../../b/src/parts"]);
  });

  it("refuses the root's tools and packages reaching each other by path", () => {
    // Act
    const found = scan({
      "tools/deep.ts": 'import { inner } from "../packages/b/src/inner";\nexport const d = inner;\n',
      "packages/b/src/up.ts": 'import { helper } from "../../../tools/helper";\nexport const up = helper;\n',
    });

    // Assert
    expect(found).toEqual(["packages/b/src/up.ts → ../../../tools/helper", "tools/deep.ts → ../packages/b/src/inner"]);
  });

  it("refuses an entry the package does not export, and any internal entry", () => {
    // Act
    const found = scan({ "tools/door.ts": 'import { inner } from "@x/b/internal/src/inner";\nimport { x } from "@x/b/src/parts";\nexport const d = [inner, x];\n' });

    // Assert
    expect(found).toEqual(["tools/door.ts → @x/b/internal/src/inner", "tools/door.ts → @x/b/src/parts"]);
  });

  it("refuses a package.json that exports a wildcard or an internal entry", () => {
    // Act
    const found = scan({ "packages/b/package.json": JSON.stringify({ name: "@x/b", exports: { ".": "./src/index.ts", "./parts": "./src/parts.ts", "./internal/*": "./src/*.ts" } }) });

    // Assert
    expect(found).toEqual(["packages/b/package.json → ./internal/*"]);
  });

  it("holds in this repository", () => {
    expect(findBoundaryViolations(path.join(__dirname, "../..")).map((f) => `${f.file} → ${f.specifier}: ${f.why}`)).toEqual([]);
  });
});
