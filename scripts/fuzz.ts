// `npm run sim:search`: the search for broken promises (docs/simulation.md). Exits 1 on a violation, 2 on bad usage.
import "./support/quiet-sdk";
import { fuzz } from "../tools/sim/src/fuzz/search";
import { mutantById, mutantSettingsOf } from "../tools/sim/src/mutants/mutate";
import { runScenario } from "../tools/sim/src/run";
import { settingsFor } from "../tools/sim/src/settings";
import { FUZZ_HELP, FuzzUsageError, fuzzReportText, parseFuzzArgs, type FuzzArgs } from "../tools/sim/src/fuzz/cli";
import { FUZZ_WORKER_ENV, fuzzInProcesses, toWire, type WorkerMessage } from "../tools/sim/src/fuzz/jobs";

/** The arguments of one worker: the same search, its share of the runs, its own seed. */
function workerArgs(args: FuzzArgs, runs: number, seed: number): string[] {
  const out = ["--runs", String(runs), "--seed", String(seed)];
  if (args.maxOps !== undefined) out.push("--max-ops", String(args.maxOps));
  if (args.messages !== undefined) out.push("--messages", String(args.messages));
  if (args.focus !== undefined) out.push("--focus", args.focus);
  out.push("--settings", args.settings, "--domain", args.domain);
  if (args.hunt !== undefined) out.push("--hunt", args.hunt);
  if (args.mutant !== undefined) out.push("--mutant", args.mutant);
  for (const c of args.skip) out.push("--skip", c);
  return out;
}

async function main(): Promise<number> {
  const args = parseFuzzArgs(process.argv.slice(2));
  if (args.help) {
    console.log(FUZZ_HELP);
    return 0;
  }
  const worker = process.env[FUZZ_WORKER_ENV] === "1" && process.send !== undefined;
  let next = 0;
  const progress = (n: number) => {
    if (n < next) return;
    if (worker) process.send?.({ progress: n } satisfies WorkerMessage);
    else process.stderr.write(`\r${n} schedules`);
    next = n + (worker ? 20 : 100);
  };
  const mutant = args.mutant === undefined ? undefined : mutantById(args.mutant);
  const mutation = mutant ? { mutant: mutant.id, settingsOf: mutantSettingsOf(mutant) } : {};
  const shape = { maxOps: args.maxOps, messages: args.messages, focus: args.focus, settingsMode: args.settings, domainMode: args.domain, hunt: args.hunt, skip: args.skip, ...mutation };
  const seed = args.seed ?? Date.now() % 2_147_483_647;
  const report =
    args.jobs > 1
      ? await fuzzInProcesses({ script: process.argv[1], runs: args.runs, seed, jobs: args.jobs, args: (runs, s) => workerArgs(args, runs, s), onProgress: progress })
      : await fuzz({ runs: args.runs, seed, path: args.path, ...shape, onRun: progress });
  if (worker) {
    // Exit only once the report is handed over: process.exit drops IPC messages still queued.
    await new Promise<void>((resolve) => process.send?.({ report: toWire(report) } satisfies WorkerMessage, () => resolve()));
    return 0;
  }
  process.stderr.write("\n");
  if (args.json) console.log(JSON.stringify({ ...toWire(report), definition: undefined }, null, 1));
  else console.log(fuzzReportText(report));
  if (args.trace && report.failure) {
    const run = await runScenario((mutation.settingsOf ?? settingsFor)(report.failure.settings ?? {}, report.failure.domain), report.failure.scenario);
    console.log(`\ntrace of the minimal scenario:\n${run.trace.map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line)).join("\n")}`);
  }
  return report.failure ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof FuzzUsageError || error.name === "NoMutantMatches" ? error.message : `fuzz failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
