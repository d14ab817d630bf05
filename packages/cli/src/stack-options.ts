import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CommandIo } from "./commands/io";
import { UsageError } from "./project/errors";
import { locateStack, type StackChoice } from "./project/locate-stack";

/** What a stack command reads: the whole stack (deployer policy), or one pipeline of it (cost, capacity, preflight). */
export type StackScope = "whole" | "pipeline";

export const STACK_HELP = `Which stack (deployer-policy, preflight, capacity, cost):
  --stack-file <file>     a synthesized cdk.tf.json
  --stack <name>          the stack of the synth output (cdktf.json's "output", default cdktf.out) when it holds
                          several; without --stack-file the output is read, and synthesized first with cdktf.json's
                          "app" when it holds no stack yet
  --pipeline <id>         the IdempotentPipeline's construct id, when the stack holds several
  --synth-command <cmd>   the command that synthesizes the project (default: cdktf.json's "app")
`;

/** The variable naming the app a command synthesizes itself (the local cloud's APP_ENV; read here without loading it). */
const APP_ENV = "PIPELINE_APP";

const FLAGS = ["stack", "pipeline", "synth-command"] as const;
type Flag = (typeof FLAGS)[number];

/** Takes this module's flags out of a command line (`--flag value` and `--flag=value`); `--stack-file` is read, and stays. */
function splitStackFlags(argv: readonly string[]): { choice: Map<Flag | "stack-file", string>; rest: string[] } {
  const choice = new Map<Flag | "stack-file", string>();
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith("--") ? [arg.slice(2).split("=")[0], arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : undefined] : ["", undefined];
    const known = (FLAGS as readonly string[]).includes(flag) || flag === "stack-file";
    if (!known) {
      rest.push(arg);
      continue;
    }
    const value = inline ?? argv[i + 1];
    if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new UsageError(`--${flag} needs a value`);
    if (inline === undefined) i += 1;
    choice.set(flag as Flag, value);
  }
  return { choice, rest };
}

/**
 * Runs a stack command on the stack the flags or the project's synth output name (`--stack-file` handed to the
 * command), after refusing a stack without a pipeline or, for a per-pipeline command, with several and no
 * `--pipeline`. Without a cdktf.json and a flag, the app PIPELINE_APP names is synthesized by the command itself.
 */
export async function withLocatedStack(name: string, scope: StackScope, argv: readonly string[], io: CommandIo, run: (argv: readonly string[]) => Promise<number>): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    const code = await run(argv);
    io.stdout(`\n${STACK_HELP}`);
    return code;
  }
  let located: ReturnType<typeof locateStack> | undefined;
  let rest: string[];
  try {
    const split = splitStackFlags(argv);
    rest = split.rest;
    const choice: StackChoice = { stackFile: split.choice.get("stack-file"), stack: split.choice.get("stack"), pipeline: split.choice.get("pipeline"), synthCommand: split.choice.get("synth-command"), cwd: io.cwd };
    const project = existsSync(join(io.cwd, "cdktf.json"));
    // This repository's examples (and a team's PipelineApp) without a cdktf.json: the command synthesizes the app.
    if (choice.stackFile === undefined && !project && io.env[APP_ENV]) return await run(rest);
    located = locateStack(choice, { env: io.env, log: io.stderr, onePipeline: scope === "pipeline" });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`effectively-once ${name}: ${error.message}`);
    return 2;
  }
  try {
    return await run(["--stack-file", located.stackFile, ...rest]);
  } finally {
    located.cleanup();
  }
}
