import { parse, targetOptions, TARGET_OPTIONS } from "./cli-options";
import { createOpsClients, type OpsClients } from "./clients";
import { COMMANDS, GROUPS, type CommandIo, type CommandSpec } from "./commands";
import { OpsError, UsageError } from "./errors";
import { ExitCode } from "./exit-codes";
import { HELP, PROG } from "./help";
import { resolveTarget, targetArguments, type Target, type TargetDeps } from "./target";
import { safeCell, safeLines } from "./safe-text";
import type { OpsContext } from "./types";

export interface CliIo extends CommandIo {
  readonly now?: () => number;
  /** Builds the AWS clients for a target (default: real SDK clients). */
  readonly createClients?: (target: Target) => OpsClients;
  readonly targetDeps?: TargetDeps;
  /** Print stack traces of unexpected errors (PIPELINE_OPS_DEBUG=1). */
  readonly debug?: boolean;
}

/** Runs one command line; returns the exit code. Never throws: every failure is one line on stderr. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // The last line of defence: nothing from message data reaches the terminal raw, whatever printed it.
  const io: CliIo = { ...rawIo, stdout: (text) => rawIo.stdout(safeLines(text)), stderr: (text) => rawIo.stderr(safeLines(text)), prompt: (q) => rawIo.prompt(safeCell(q)) };
  try {
    return await dispatch([...argv], io);
  } catch (error) {
    if (error instanceof OpsError) {
      io.stderr(`${PROG}: ${oneLine(error.message)}`);
      return error.exitCode;
    }
    const err = error as Error;
    io.stderr(`${PROG}: unexpected error: ${err?.name ?? "Error"}: ${oneLine(err?.message ?? String(error))}`);
    if (io.debug && err?.stack) io.stderr(err.stack);
    return ExitCode.Failure;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const first = argv[0];
  if (first === undefined) {
    io.stderr(HELP.overview);
    return ExitCode.Usage;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    io.stdout(HELP.overview);
    return ExitCode.Ok;
  }
  if (GROUPS[first] && (argv[1] === "--help" || argv[1] === "-h")) {
    io.stdout(HELP.overview);
    return ExitCode.Ok;
  }
  const { spec, rest } = findCommand(argv);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(HELP[spec.name]);
    return ExitCode.Ok;
  }
  const args = parse(rest, { ...TARGET_OPTIONS, ...spec.options }, spec.name);
  const input = spec.input(args);
  const options = targetOptions(args.values);
  const target = resolveTarget(options, io.targetDeps);
  const clients = (io.createClients ?? createOpsClients)(target);
  const ctx: OpsContext = {
    sqs: clients.sqs,
    dynamodb: clients.dynamodb,
    ...(clients.sfn ? { sfn: clients.sfn } : {}),
    outputs: target.outputs,
    targetLabel: target.label,
    endpoints: target.endpoints,
    now: io.now ?? Date.now,
    ...(clients.cloudwatch ? { cloudwatch: clients.cloudwatch } : {}),
    targetArgs: targetArguments(options),
    functionConfiguration: clients.functionConfiguration,
  };
  try {
    return await spec.run(ctx, input, io);
  } finally {
    clients.destroy();
  }
}

function findCommand(argv: string[]): { spec: CommandSpec; rest: string[] } {
  const [word, sub, ...tail] = argv;
  const subcommands = GROUPS[word];
  if (subcommands) {
    if (sub === undefined || !subcommands.includes(sub)) {
      const hint = `${word} ${subcommands.join("|")}`;
      throw new UsageError(sub === undefined || sub.startsWith("-") ? `"${word}" needs a subcommand: ${hint}` : `unknown command "${word} ${sub}": use ${hint}`);
    }
    return { spec: COMMANDS[`${word} ${sub}`], rest: tail };
  }
  const spec = COMMANDS[word];
  if (!spec) throw new UsageError(`unknown command "${word}": use status, dlq list, dlq redrive, ledger get, ledger release or trace (see \`${PROG} --help\`)`);
  return { spec, rest: argv.slice(1) };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
