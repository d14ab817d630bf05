import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "./errors";

/**
 * The team's cdktf or CDK Terrain project, as its `cdktf.json` describes it: the command that synthesizes it (`app`)
 * and the folder the synth writes (`output`, default cdktf.out), whose `stacks/<name>/cdk.tf.json` the tools read.
 */
export interface CdktfProject {
  /** The folder holding cdktf.json. */
  readonly dir: string;
  /** The synth command (cdktf.json's `app`, or `--synth-command`). */
  readonly app: string;
  /** The synth output folder, absolute. */
  readonly output: string;
}

/** cdktf's own default when cdktf.json names no `output`. */
const DEFAULT_OUTPUT = "cdktf.out";

/** Reads `<dir>/cdktf.json`; undefined when there is none. A file that is not a project's is refused, naming the field. */
export function readProject(dir: string, synthCommand?: string): CdktfProject | undefined {
  const file = join(dir, "cdktf.json");
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message})`);
  }
  const fields = new Map(Object.entries(typeof json === "object" && json !== null ? json : {}));
  const app = synthCommand ?? fields.get("app");
  if (typeof app !== "string" || app.trim() === "") throw new UsageError(`${file}: "app" (the synth command, e.g. "npx tsx main.ts") is missing; set it, or pass --synth-command`);
  const output = fields.get("output") ?? DEFAULT_OUTPUT;
  if (typeof output !== "string") throw new UsageError(`${file}: "output" is ${JSON.stringify(output)}, not a folder name`);
  return { dir: resolve(dir), app, output: resolve(dir, output) };
}

/** The stacks a synth output folder holds (folders of `<output>/stacks` with a cdk.tf.json), sorted. */
export function stacksIn(output: string): string[] {
  const stacks = join(output, "stacks");
  if (!existsSync(stacks)) return [];
  return readdirSync(stacks, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(stacks, e.name, "cdk.tf.json")))
    .map((e) => e.name)
    .sort();
}

/**
 * Runs the project's synth command in its folder with `env` (an env file's variables among them), writing into
 * `outdir` (CDKTF_OUTDIR, which cdktf's and CDK Terrain's App read). Its output goes to our stderr (progress); a
 * failure is one line naming the command and its exit code.
 */
export function synthProject(project: CdktfProject, env: NodeJS.ProcessEnv, outdir: string, log: (line: string) => void): void {
  log(`synth: ${project.app} (in ${project.dir}, into ${outdir})`);
  const run = spawnSync(project.app, { cwd: project.dir, env: { ...env, CDKTF_OUTDIR: outdir, CHECKPOINT_DISABLE: env.CHECKPOINT_DISABLE ?? "1" }, shell: true, stdio: ["ignore", 2, 2] });
  if (run.error) throw new UsageError(`synth: cannot run "${project.app}" (${run.error.message})`);
  if (run.status !== 0) throw new UsageError(`synth: "${project.app}" exited ${run.status ?? run.signal}; fix the app, or pass --stack-file <cdk.tf.json>`);
}
