import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readProject, stacksIn, synthProject } from "./cdktf-project";
import { UsageError } from "./errors";
import { choosePipeline, narrowToPipeline, pipelinesOf } from "./pipelines";
import { newerSource } from "./stale-synth";

/** How a command was told which stack to read (the flags every stack command takes). */
export interface StackChoice {
  /** `--stack-file`: a synthesized cdk.tf.json. */
  readonly stackFile?: string;
  /** `--stack`: the stack's name in the synth output (needed when it holds several). */
  readonly stack?: string;
  /** `--pipeline`: the IdempotentPipeline's construct id (needed when the stack holds several). */
  readonly pipeline?: string;
  /** `--synth-command`: the command that synthesizes the project (default: cdktf.json's `app`). */
  readonly synthCommand?: string;
  /** The folder holding cdktf.json (the working directory). */
  readonly cwd: string;
}

export interface LocatedStack {
  /** The cdk.tf.json to read (a narrowed copy when `--pipeline` picked one of several). */
  readonly stackFile: string;
  /** Removes what locating wrote (the narrowed copy); the synth output stays, as `cdktf synth` leaves it. */
  cleanup(): void;
}

/**
 * The synthesized stack a command reads: `--stack-file`, else the project's synth output (cdktf.json's `output`,
 * synthesized first with its `app` when it holds no stack yet), `--stack` picking one of several. Refuses a stack
 * without an IdempotentPipeline; a per-pipeline command (`onePipeline`) also one with several and no `--pipeline`.
 */
export function locateStack(choice: StackChoice, options: { env: NodeJS.ProcessEnv; log: (line: string) => void; onePipeline: boolean }): LocatedStack {
  const file = choice.stackFile ? resolve(choice.cwd, choice.stackFile) : fromProject(choice, options.env, options.log);
  if (!existsSync(file)) throw new UsageError(`--stack-file ${choice.stackFile}: no such file (a synthesized cdk.tf.json, e.g. cdktf.out/stacks/<stack>/cdk.tf.json)`);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`${file}: not JSON (${(error as Error).message}); give a synthesized cdk.tf.json`);
  }
  const none = () => undefined;
  if (!options.onePipeline) {
    if (pipelinesOf(json).length === 0) choosePipeline(json, file, undefined);
    return { stackFile: file, cleanup: none };
  }
  const { chosen, all } = choosePipeline(json, file, choice.pipeline);
  if (all.length === 1) return { stackFile: file, cleanup: none };
  const dir = mkdtempSync(join(tmpdir(), "effectively-once-stack-"));
  const narrowed = join(dir, "cdk.tf.json");
  writeFileSync(narrowed, JSON.stringify(narrowToPipeline(json, chosen, all)));
  options.log(`stack: ${file}, pipeline ${chosen.id} (${chosen.path})`);
  return { stackFile: narrowed, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function fromProject(choice: StackChoice, env: NodeJS.ProcessEnv, log: (line: string) => void): string {
  const project = readProject(choice.cwd, choice.synthCommand);
  if (!project) throw new UsageError(`no stack: ${choice.cwd} holds no cdktf.json; run from your cdktf (or CDK Terrain) project's folder, or pass --stack-file <cdk.tf.json>`);
  let stacks = stacksIn(project.output);
  if (stacks.length === 0) {
    synthProject(project, env, project.output, log);
    stacks = stacksIn(project.output);
    if (stacks.length === 0) throw new UsageError(`synth: "${project.app}" wrote no stack into ${join(project.output, "stacks")}; does the app call app.synth()?`);
  }
  const name = choice.stack ?? (stacks.length === 1 ? stacks[0] : undefined);
  if (name === undefined) throw new UsageError(`${join(project.output, "stacks")} holds ${stacks.length} stacks (${stacks.join(", ")}): pass --stack <name>`);
  if (!stacks.includes(name)) throw new UsageError(`--stack ${name}: ${join(project.output, "stacks")} has no such stack; it has ${stacks.join(", ")}`);
  const file = join(project.output, "stacks", name, "cdk.tf.json");
  log(`stack: ${file}`);
  const stale = newerSource(project.dir, project.output, file);
  if (stale) log(`warning: ${stale.file} changed (${stale.changed.toISOString()}) after this stack was synthesized; run the synth again (\`npx cdktf synth\`, or \`${project.app}\`) if the change touches the stack`);
  return file;
}
