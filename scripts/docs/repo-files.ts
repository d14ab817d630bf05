/**
 * The files of the repository the path check reads, and which of the paths it finds git ignores: git's answers in a
 * work tree, .gitignore's patterns read directly outside one (a copy such as CDK Terrain mode's, a source archive).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository's files: git's list, or outside a git work tree (a copy, a source archive) every file .gitignore keeps. */
export function trackedFiles(root: string): string[] {
  if (!existsSync(join(root, ".git"))) return unignoredFiles(root);
  return execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter((f) => f && existsSync(join(root, f)));
}

/** .gitignore's patterns as this repository writes them: `name`, `name/`, `/name` (root only) and `*` globs. */
function ignoreRule(root: string): (path: string, name: string) => boolean {
  const patterns = readFileSync(join(root, ".gitignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const rooted = line.startsWith("/") || line.replace(/\/$/, "").includes("/");
      const body = line.replace(/^\//, "").replace(/\/$/, "");
      const regex = new RegExp(`^${body.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join("[^/]*")}$`);
      return { rooted, regex };
    });
  return (path, name) => name === ".git" || patterns.some((p) => p.regex.test(p.rooted ? path : name));
}

function unignoredFiles(root: string): string[] {
  const ignored = ignoreRule(root);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (ignored(path, entry.name)) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  walk("");
  return files.sort();
}

/** Those of `paths` git ignores. */
export function ignoredByGit(root: string, paths: readonly string[]): Set<string> {
  if (paths.length === 0) return new Set();
  if (!existsSync(join(root, ".git"))) {
    // Outside a work tree: a path is ignored when it or a folder above it matches .gitignore.
    const ignored = ignoreRule(root);
    const isIgnored = (path: string) => {
      const parts = path.replace(/\/$/, "").split("/");
      return parts.some((name, i) => ignored(parts.slice(0, i + 1).join("/"), name));
    };
    return new Set(paths.filter(isIgnored));
  }
  try {
    const out = execFileSync("git", ["check-ignore", "--no-index", "--stdin"], { cwd: root, input: paths.join("\n"), encoding: "utf8" });
    return new Set(out.split("\n").filter(Boolean));
  } catch (error) {
    // Exit 1: none of them is ignored.
    if ((error as { status?: number }).status === 1) return new Set();
    throw error;
  }
}
