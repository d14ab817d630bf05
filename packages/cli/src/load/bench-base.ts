import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoadError } from "@effectively-once/local-cloud/harness";
import type { BenchResult } from "./bench-report";
import type { SmokeArm } from "./bench-smoke";

/**
 * The file naming the commit a submission is held to: the main it started from. Whoever lands a change sets it
 * (`git rev-parse HEAD > bench/base-commit` before the first commit), so CI, which sees only a clone, knows the base.
 */
export const BASE_COMMIT_FILE = "bench/base-commit";

function git(root: string, args: readonly string[]): { ok: boolean; out: string } {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8" });
  return { ok: r.status === 0, out: (r.stdout ?? "").trim() };
}

/**
 * The base commit: the one given, else the one in {@link BASE_COMMIT_FILE}; it must be an ancestor of HEAD and not
 * HEAD itself. Without a usable one the change is held to its parent, and the reason is returned to be printed.
 */
export function resolveBase(root: string, given?: string): { readonly rev: string; readonly note: string } {
  const file = join(root, BASE_COMMIT_FILE);
  const wanted = given ?? (existsSync(file) ? readFileSync(file, "utf8").trim() : "");
  const head = git(root, ["rev-parse", "HEAD"]).out;
  const rev = wanted ? git(root, ["rev-parse", "--verify", "--quiet", `${wanted}^{commit}`]).out : "";
  if (rev && rev !== head && git(root, ["merge-base", "--is-ancestor", rev, "HEAD"]).ok) {
    return { rev, note: `base ${rev.slice(0, 7)} (${given ? "--base" : BASE_COMMIT_FILE})` };
  }
  const parent = git(root, ["rev-parse", "HEAD~1"]).out;
  if (!parent) throw new LoadError("bench smoke: HEAD has no parent to hold the change to; give --base <commit>");
  const why = !wanted ? `no ${BASE_COMMIT_FILE}` : !rev ? `${wanted} is not a commit here` : `${wanted} is HEAD or not an ancestor of it`;
  return { rev: parent, note: `base ${parent.slice(0, 7)} (HEAD's parent: ${why})` };
}

export interface Checkout {
  readonly dir: string;
  dispose(): void;
}

/**
 * A detached worktree of `rev` with its dependencies: a hard-linked copy of this checkout's `node_modules` when the
 * two lock files agree (seconds; the workspace links are relative, so they point into the worktree), else `npm ci`.
 */
export function prepareBase(root: string, rev: string, log: (line: string) => void): Checkout {
  const dir = join(mkdtempSync(join(tmpdir(), "bench-base-")), "checkout");
  const dispose = () => {
    git(root, ["worktree", "remove", "--force", dir]);
    rmSync(join(dir, ".."), { recursive: true, force: true });
  };
  if (!git(root, ["worktree", "add", "--detach", dir, rev]).ok) {
    dispose();
    throw new LoadError(`bench smoke: git worktree add ${rev} failed`);
  }
  const sameLock = readFileSync(join(root, "package-lock.json"), "utf8") === readFileSync(join(dir, "package-lock.json"), "utf8");
  if (sameLock) {
    log(`[bench smoke] base ${rev.slice(0, 7)}: same lock file, node_modules hard-linked`);
    if (spawnSync("cp", ["-al", join(root, "node_modules"), join(dir, "node_modules")]).status !== 0) {
      dispose();
      throw new LoadError(`bench smoke: could not link node_modules into ${dir}`);
    }
  } else {
    log(`[bench smoke] base ${rev.slice(0, 7)}: lock file differs, npm ci in ${dir}`);
    const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
    if (r.status !== 0) {
      dispose();
      throw new LoadError(`bench smoke: npm ci of the base ${rev} failed`);
    }
  }
  return { dir, dispose };
}

/**
 * An arm that runs `npx effectively-once bench --quick` of one checkout in a child process and reads its JSON;
 * `extra` are more bench flags (e.g. `--invocation per-batch`, for the change's arm: a base may predate them).
 */
export function benchArm(dir: string, label: string, log: (line: string) => void, extra: readonly string[] = []): SmokeArm {
  let run = 0;
  return async (batchSizes) => {
    const jsonFile = join(dir, "tmp", "bench", `smoke-${label}-${++run}.json`);
    // The bench is the CLI's `bench` command; a base commit from before the CLI package has its own script instead.
    const entry = existsSync(join(dir, "packages/cli/src/run.ts")) ? ["packages/cli/src/run.ts", "bench"] : ["scripts/bench.ts"];
    const args = [...entry, "--quick", "--batch-sizes", batchSizes.join(","), "--json-file", jsonFile, ...extra];
    log(`[bench smoke] ${label} run ${run}: batch sizes ${batchSizes.join(", ")}`);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(join(dir, "node_modules", ".bin", "tsx"), args, { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new LoadError(`bench smoke: the ${label}'s bench exited ${code} (${dir})`);
    return JSON.parse(readFileSync(jsonFile, "utf8")) as BenchResult;
  };
}
