// `effectively-once <command>`: the one bin of @effectively-once/cli. Each command keeps its own options and --help;
// the commands that read a synthesized stack get it from the project's synth output (cdktf.json) or a flag, here.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandIo } from "./commands/io";
import { STACK_HELP, withLocatedStack, type StackScope } from "./stack-options";

interface Command {
  readonly name: string;
  readonly summary: string;
  /** Commands that read a synthesized stack: the whole stack, or the one pipeline a per-pipeline model reads. */
  readonly stack?: StackScope;
  run(argv: readonly string[], io: CommandIo): Promise<number>;
}

/** A command's modules, loaded when it runs: `--help` and a usage error stay quick, whatever the others import. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load by design (see above); the ids are this package's own files
const lazy = <T>(id: string): T => require(id) as T;

/** The commands, in the order a team meets them: review a change, check the account, size it, load it, verify AWS. */
export const COMMANDS: readonly Command[] = [
  { name: "plan", summary: "terraform plan of the stack (offline without credentials), reviewed with risk flags, as Markdown for a pull request", run: (argv, io) => lazy<typeof import("./commands/plan")>("./commands/plan").runPlan(argv, io) },
  { name: "deployer-policy", summary: "the least-privilege IAM policy of whoever deploys the synthesized stack", stack: "whole", run: (argv, io) => lazy<typeof import("./commands/stack-tools")>("./commands/stack-tools").runDeployerPolicy(argv, io) },
  { name: "preflight", summary: "what only the AWS account knows (unreserved concurrency, quotas, names taken) against the stack, read-only", stack: "pipeline", run: (argv, io) => lazy<typeof import("./commands/stack-tools")>("./commands/stack-tools").runPreflight(argv, io) },
  { name: "capacity", summary: "what each part needs at a rate (--rate N) against AWS's default quotas, and what saturates first", stack: "pipeline", run: (argv, io) => lazy<typeof import("./commands/stack-tools")>("./commands/stack-tools").runCapacity(argv, io) },
  { name: "cost", summary: "cost per million messages from the synthesized stack and list prices", stack: "pipeline", run: (argv, io) => lazy<typeof import("./commands/stack-tools")>("./commands/stack-tools").runCost(argv, io) },
  { name: "soak", summary: "the pipeline under load and faults on the local cloud (or a deployed stack), checked key by key", run: (argv, io) => lazy<typeof import("./commands/soak")>("./commands/soak").runSoakCommand(argv, io) },
  { name: "bench", summary: "storage floor, end-to-end throughput, their ratio and a CPU profile, side by side", run: (argv, io) => lazy<typeof import("./commands/bench")>("./commands/bench").runBenchCommand(argv, io) },
  { name: "verify", summary: "asks AWS (--target aws) or the local cloud (--target local) what the offline proof assumes, on a probe stack", run: (argv, io) => lazy<typeof import("./commands/verify")>("./commands/verify").runVerify(argv, io) },
  { name: "stepfunctions", summary: "runs a Step Functions definition, one state as TestState does, or the local TestState endpoint", run: (argv) => lazy<typeof import("./stepfunctions/cli")>("./stepfunctions/cli").runStepFunctionsCli(argv) },
  { name: "rehearse", summary: "a real terraform apply, change and teardown of the stack against moto, offline", run: (argv, io) => lazy<typeof import("./commands/rehearse")>("./commands/rehearse").runRehearse(argv, io) },
];

/** The package's version: its package.json is one folder up from src/, two from the installed dist/src/. */
function version(): string {
  const file = [join(__dirname, "..", "package.json"), join(__dirname, "..", "..", "package.json")].find((f) => existsSync(f)) ?? "";
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: npx effectively-once <command> [options]

The tools for a stack of @effectively-once/pipeline, run from your cdktf or CDK Terrain project's folder.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run 'npx effectively-once <command> --help' for a command's options. Results go to stdout (JSON with --json
where a command prints one), progress and errors to stderr.

${STACK_HELP}
Exit codes: 0 done, 1 a finding or failure the command names (each command's --help says which), 2 bad usage.
  -h, --help     this text
  -v, --version  the package's version
`;
}

/** Runs one command line; resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(help());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`effectively-once: unknown command "${name}"; one of ${COMMANDS.map((c) => c.name).join(", ")} (see --help)`);
    return 2;
  }
  if (!command.stack) return command.run(rest, io);
  return withLocatedStack(command.name, command.stack, rest, io, (argv) => command.run(argv, io));
}
