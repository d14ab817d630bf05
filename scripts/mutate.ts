// `npm run sim:mutants`: mutants of the rendered state machine against the fast proof (docs/simulation.md).
// Exits 1 when a non-equivalent mutant survives or the unmutated pipeline is not green, 2 on bad usage.
import "./support/quiet-sdk";
import { WIDE_ALLOWANCES } from "../tools/sim/src/oracle/allowances-wide";
import { BaselineNotGreen, MutantStatus, mutate, mutantLine, mutateReportText, NoMutantMatches } from "../tools/sim/src/mutants/mutate";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const runs = flag("--runs") === undefined ? undefined : Number(flag("--runs"));
  if (runs !== undefined && (!Number.isInteger(runs) || runs < 1)) {
    console.error(`--runs needs an integer >= 1, got ${JSON.stringify(flag("--runs"))}`);
    return 2;
  }
  const oracle = flag("--oracle") ?? "narrow";
  if (oracle !== "narrow" && oracle !== "wide") {
    console.error(`--oracle is narrow (the model) or wide (the model before issue 22, to compare), got ${JSON.stringify(oracle)}`);
    return 2;
  }
  const results = await mutate({
    runs,
    filter: flag("--only"),
    allowances: oracle === "wide" ? WIDE_ALLOWANCES : undefined,
    onResult: (r) => console.log(mutantLine(r)),
  });
  console.log(mutateReportText(results, false));
  return results.some((r) => r.status === MutantStatus.Survived) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof BaselineNotGreen || error instanceof NoMutantMatches ? error.message : `mutate failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
