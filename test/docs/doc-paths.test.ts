/**
 * Every path of this repository named in a document (any `.md`, READMEs included) or a code comment exists. The rule,
 * and what it leaves out (other projects, generated output, a team's app, placeholders, history), is stated at the
 * top of scripts/docs/paths.ts; `npm run lint:paths` runs the same check and prints each missing path.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { commentsOf, formatMissing, headingAnchors, missingPaths } from "../../scripts/docs/paths";

const ROOT = join(__dirname, "../..");
/** The start of the reason a path that leaves the repository is reported for (the fix follows it). */
const OUTSIDE = expect.stringMatching(/^leaves the repository from every folder it may be written from .*: a path of another project is written from that project's name/);

describe("Docs: every path they name exists", () => {
  it("holds for this repository (npm run lint:paths lists what is missing)", () => {
    const problems = missingPaths(ROOT);
    expect(formatMissing(problems, ROOT, ROOT)).toBe("");
  });
});

describe("Function: missingPaths", () => {
  let repo: string;
  const write = (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, file)), { recursive: true });
      writeFileSync(join(repo, file), text);
    }
    return Object.keys(files);
  };

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), "doc-paths-"));
    execFileSync("git", ["init", "-q"], { cwd: repo });
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it("reports a doc that names a missing file, a missing page and a missing heading, with file and line", () => {
    const files = write({
      ".gitignore": "cdktf.out/\ndocs/api/\n",
      "tools/sim/oracle.ts": "export const x = 1;\n",
      "docs/guide.md": "# Guide\n\n## Redrives\n\nThe model: `tools/sim/oracle.ts`.\nThe old one: `tools/ops/redrive.ts`.\n",
      "docs/other.md": "# Other\n\nSee [the guide](guide.md#redrives), [gone](gone.md) and [no heading](guide.md#retention).\n",
    });
    const problems = missingPaths(repo, files);
    expect(problems).toEqual([
      { file: "docs/guide.md", line: 6, path: "tools/ops/redrive.ts", why: "no such file or folder" },
      { file: "docs/other.md", line: 3, path: "guide.md#retention", why: "no such heading in docs/guide.md" },
      { file: "docs/other.md", line: 3, path: "gone.md", why: "no such file or folder" },
    ]);
    expect(formatMissing(problems, repo, repo)).toContain("docs/guide.md:6: tools/ops/redrive.ts (no such file or folder)");
  });

  it("reads code comments, not strings, and a folder of the layout before the packages counts as ours", () => {
    const files = write({
      "tools/a.ts": '// Mirrors local/sim/focus.ts.\nconst s = "local/sim/focus.ts";\n/** See tools/a.ts. */\nexport const t = s;\n',
      "scripts/run.sh": "#!/usr/bin/env bash\n# runs functions/handler.ts\necho functions/other.ts\n",
    });
    expect(missingPaths(repo, files).map((p) => `${p.file}:${p.line} ${p.path}`)).toEqual([
      "scripts/run.sh:2 functions/handler.ts",
      "tools/a.ts:1 local/sim/focus.ts",
    ]);
  });

  it("leaves out other projects, generated output, a team's app, package entries and placeholders", () => {
    const files = write({
      ".gitignore": "cdktf.out/\ndocs/api/\n",
      "package.json": JSON.stringify({ devDependencies: { dynalite: "4.0.0", "@cdktf/provider-aws": "20.1.0" }, exports: { "./handler": "./h.js" } }),
      "docs/x.md": [
        "# X",
        "https://github.com/hashicorp/terraform/blob/main/docs/missing.md and hashicorp/aws 5.100.0",
        "`@cdktf/provider-aws/lib/sqs-queue`, `dynalite/actions/putItem`, `node_modules/jest/bin`",
        "`cdktf.out/stacks/payments/cdk.tf.json`, `docs/api/index.html`, `docs/<page>.md`, `examples/*/stack.ts`",
        "The function (`functions/charge.ts`), the `./handler` entry.",
        "```ts",
        'import { x } from "./support/suite";',
        'entry: join(__dirname, "functions/refund.ts"),',
        "```",
        "and/or, 10 msg/s, SQS/SNS",
      ].join("\n"),
    });
    expect(missingPaths(repo, files)).toEqual([]);
  });

  it("checks a path from the naming file's folder, its package's root and the repository's root, with or without an extension", () => {
    const files = write({
      "packages/p/package.json": "{}",
      "packages/p/src/contract/limits.ts": "export {};\n",
      "packages/p/src/b/c.ts": "// src/contract/limits.ts and ../contract/limits and packages/p/src/contract/limits.ts\nexport {};\n",
      "docs/y.md": "# Y\n\n`packages/p/src/contract/limits.ts`, [limits](../packages/p/src/contract/limits.ts)\n",
    });
    expect(missingPaths(repo, files)).toEqual([]);
  });

  it("reports a path that leaves the repository from every folder it may be written from, and never looks outside it", () => {
    // A file beside the repository: found from outside, it must not make a path of the repository exist.
    const beside = join(repo, "..", `${basename(repo)}-beside.md`);
    writeFileSync(beside, "# Beside\n");
    try {
      const files = write({
        "README.md": `# R\n\nnode-pty's \`../build/Release/pty.node\`, and [beside](../${basename(beside)}).\n`,
        "docs/z.md": "# Z\n\nFrom here `../build/Release/pty.node` is the repository's `build/Release/pty.node`.\n",
      });
      expect(missingPaths(repo, files)).toEqual([
        { file: "docs/z.md", line: 3, path: "../build/Release/pty.node", why: "no such file or folder" },
        { file: "README.md", line: 3, path: `../${basename(beside)}`, why: OUTSIDE },
        { file: "README.md", line: 3, path: "../build/Release/pty.node", why: OUTSIDE },
      ]);
    } finally {
      rmSync(beside, { force: true });
    }
  });

  it("keeps the paths of their time in history (changelogs, changesets), but checks their links", () => {
    const files = write({
      "CHANGELOG.md": "Moved `local/sim` to `tools/sim`; see [the page](docs/gone.md).\n",
      ".changeset/a.md": "`functions/errors.ts`\n",
    });
    expect(missingPaths(repo, files)).toEqual([{ file: "CHANGELOG.md", line: 1, path: "docs/gone.md", why: "no such file or folder" }]);
  });

  it("outside a git work tree (a copied repository, a source archive), reads the files .gitignore keeps and its ignored paths", () => {
    write({
      ".gitignore": "node_modules/\ncdktf.out/\n/tmp/\ndocs/api/\n*.tfstate*\n",
      "tools/sim/oracle.ts": "export const x = 1;\n",
      "docs/guide.md": "# Guide\n\nThe model `tools/sim/oracle.ts`, the synth's `cdktf.out/stacks/x/cdk.tf.json`, the API `docs/api/index.html`.\nGone: `tools/ops/redrive.ts`.\n",
      "node_modules/pkg/README.md": "See `tools/never.ts`.\n",
      "cdktf.out/notes.md": "See `tools/never-either.ts`.\n",
    });
    rmSync(join(repo, ".git"), { recursive: true, force: true });
    expect(missingPaths(repo).map((p) => `${p.file}:${p.line} ${p.path}`)).toEqual(["docs/guide.md:4 tools/ops/redrive.ts"]);
  });
});

describe("Function: headingAnchors", () => {
  it("spells anchors as GitHub does, numbering repeats and skipping code blocks", () => {
    const anchors = headingAnchors("# AWS's limits\n## `npm run fuzz`: the search\n```\n# not a heading\n```\n## Figures\n## Figures\n");
    expect([...anchors]).toEqual(["awss-limits", "npm-run-fuzz-the-search", "figures", "figures-1"]);
  });
});

describe("Function: commentsOf", () => {
  it("finds line and block comments once each, with their lines, and no text of strings or templates", () => {
    const source = 'const a = `// not ${1} a comment`; // one\n/* two\n */\nfunction f() {\n  // three\n  return "/* four */";\n}\n';
    expect(commentsOf("x.ts", source)).toEqual([
      { line: 1, text: "// one" },
      { line: 2, text: "/* two\n */" },
      { line: 5, text: "// three" },
    ]);
  });
});
