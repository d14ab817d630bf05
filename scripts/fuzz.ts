// `npm run fuzz`: the search for broken promises (docs/simulation.md). Exits 1 on a violation, 2 on bad usage.
import "./support/quiet-sdk";
import { fuzz } from "../local/sim/fuzz";
import { runScenario } from "../local/sim/run";
import { simSettings } from "../local/sim/settings";
import { FUZZ_HELP, FuzzUsageError, fuzzReportText, parseFuzzArgs } from "../local/sim/fuzz-cli";

async function main(): Promise<number> {
  const args = parseFuzzArgs(process.argv.slice(2));
  if (args.help) {
    console.log(FUZZ_HELP);
    return 0;
  }
  let next = 0;
  const report = await fuzz({
    runs: args.runs,
    seed: args.seed,
    path: args.path,
    maxOps: args.maxOps,
    hunt: args.hunt,
    skip: args.skip,
    onRun: (n) => {
      if (n >= next) {
        process.stderr.write(`\r${n} schedules`);
        next = n + 100;
      }
    },
  });
  process.stderr.write("\n");
  if (args.json) console.log(JSON.stringify({ ...report, totals: { ...report.totals, outcomes: report.totals.outcomes.size, transitions: report.totals.transitions.size } }, null, 1));
  else console.log(fuzzReportText(report));
  if (args.trace && report.failure) {
    const run = await runScenario(simSettings(), report.failure.scenario);
    console.log(`\ntrace of the minimal scenario:\n${run.trace.map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line)).join("\n")}`);
  }
  return report.failure ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof FuzzUsageError ? error.message : `fuzz failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
