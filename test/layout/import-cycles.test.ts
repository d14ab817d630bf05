import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildImportGraph, describeCycles, findCycles } from "../../scripts/layout/import-cycles";

const repoRoot = path.resolve(__dirname, "../..");

/** Writes `files` (path → text) into a fresh temporary folder and returns it. */
function fixture(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("Layout: import cycles", () => {
  it("the repository's non-test files import each other without a cycle", () => {
    // Arrange / Act
    const graph = buildImportGraph(repoRoot);

    // Assert: the message names the loop, e.g. "a.ts → b.ts → a.ts"
    expect(graph.size).toBeGreaterThan(100);
    expect(describeCycles(graph)).toEqual([]);
  });

  describe("Function: buildImportGraph", () => {
    let root: string;
    afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

    it.each([
      ["a static import", 'import { b } from "./b";'],
      ["a type-only import", 'import type { B } from "./b";'],
      ["an export … from", 'export * from "./b";'],
      ["a require", 'const b = require("./b.cjs");'],
      ["a dynamic import with a literal", 'export const load = () => import("./b");'],
      ["an import of a folder's index", 'import { b } from "./dir";'],
    ])("counts %s as an edge", (_kind, importLine) => {
      // Arrange: b imports a back; the b module exists under every name the import lines use
      const back = 'import { a } from "./a";\nexport const b = a;\nexport type B = string;\n';
      root = fixture({ "a.ts": `${importLine}\nexport const a = 1;\n`, "b.ts": back, "b.cjs": 'require("./a");\n', "dir/index.ts": 'import { a } from "../a";\nexport const b = a;\n' });

      // Act
      const cycles = findCycles(buildImportGraph(root));

      // Assert
      expect(cycles).toHaveLength(1);
      expect(cycles[0]).toContain("a.ts");
    });

    it("ignores specifiers in strings and comments, packages, and test files", () => {
      // Arrange
      root = fixture({
        "a.ts": 'const s = "import { b } from \'./b\'";\n// require("./b")\nimport fs from "node:fs";\nexport const a = s + fs.sep;\n',
        "b.ts": 'import { a } from "./a";\nexport const b = a;\n',
        "a.test.ts": 'import { b } from "./b";\n',
        "test/helper.ts": 'import { a } from "../a";\n',
      });

      // Act
      const graph = buildImportGraph(root);

      // Assert
      expect([...graph.keys()].sort()).toEqual(["a.ts", "b.ts"]);
      expect(findCycles(graph)).toEqual([]);
    });

    it("names the shortest loop through the cycle", () => {
      // Arrange: a → b → c → a, plus a detour a → d → c
      root = fixture({
        "a.ts": 'import "./b";\nimport "./d";\n',
        "b.ts": 'import "./c";\n',
        "c.ts": 'import "./a";\n',
        "d.ts": 'import "./c";\n',
      });

      // Act
      const lines = describeCycles(buildImportGraph(root));

      // Assert
      expect(lines).toEqual(["import cycle (4 files): a.ts → b.ts → c.ts → a.ts"]);
    });
  });
});
