// `npm run sim:mutants`: mutants of the rendered state machine against the fast proof (docs/simulation.md).
// Exits 1 when a non-equivalent mutant survives, the unmutated pipeline is not green or the run breaks, 2 on bad
// usage (MUTATE_HELP in tools/sim/src/mutants/cli.ts).
import "./support/quiet-sdk";
import { MUTATE_HELP, MutateOracle, MutateUsageError, parseMutateArgs } from "../tools/sim/src/mutants/cli";

async function main(): Promise<number> {
  const args = parseMutateArgs(process.argv.slice(2));
  if (args.help) {
    console.log(MUTATE_HELP);
    return 0;
  }
  // Loaded only for a run: --help and bad usage answer without building the simulation.
  const { WIDE_ALLOWANCES } = await import("../tools/sim/src/oracle/allowances-wide");
  const { MutantStatus, mutate, mutantLine, mutateReportText } = await import("../tools/sim/src/mutants/mutate");
  const results = await mutate({
    runs: args.runs,
    filter: args.only,
    allowances: args.oracle === MutateOracle.Wide ? WIDE_ALLOWANCES : undefined,
    onResult: (r) => console.log(mutantLine(r)),
  });
  console.log(mutateReportText(results, false));
  return results.some((r) => r.status === MutantStatus.Survived) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    if (error instanceof MutateUsageError || error.name === "NoMutantMatches") {
      console.error(error.message);
      process.exit(2);
    }
    console.error(error.name === "BaselineNotGreen" ? error.message : `mutate failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
