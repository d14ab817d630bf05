/** `npm run sim:mutants` arguments: the usage text, the parser and its errors (scripts/mutate.ts runs them). */

export const MUTATE_HELP = `npm run sim:mutants -- [--runs N] [--only TEXT[,TEXT…]] [--oracle narrow|wide] [--help]

Makes one mutant per plausible mistake in the rendered state machine (and in what the construct and ops do beside
it), runs each against the simulation's fixed budget and prints killed / survived / equivalent per state and the
score. A full run takes many minutes: narrow it with --only and --runs while working.

  --runs N       scenarios per mutant and budget (default 150, seed 20261201); a survivor of the default, focused
                 and space budgets meets the default mix again at 4 × N (the extended budget)
  --only TEXT    only the mutants whose id contains TEXT, or any of the comma-separated parts (e.g. Release:,
                 Claim:condition); ids are printed by a run and listed in tools/sim/src/mutants/
  --oracle M     narrow (default: the model with its named allowances) or wide (any hard fault on a key excuses
                 its fates: the old model, to compare what it lets live)
  --help, -h     print this text and exit

Exit codes:
  0  every mutant killed or listed as equivalent (tools/sim/src/mutants/equivalent.ts)
  1  a mutant survived, the unmutated pipeline already breaks the model, or the run itself broke
  2  bad usage: an unknown flag, a bad value, or --only matching no mutant`;

export class MutateUsageError extends Error {
  override name = "MutateUsageError";
}

export const MutateOracle = { Narrow: "narrow", Wide: "wide" } as const;
export type MutateOracle = (typeof MutateOracle)[keyof typeof MutateOracle];

export interface MutateArgs {
  runs?: number;
  only?: string;
  oracle: MutateOracle;
  help: boolean;
}

const SEE_HELP = "see npm run sim:mutants -- --help";

/** Reads the flags; every unknown flag or bad value is refused (a typo must never start a run of many minutes). */
export function parseMutateArgs(argv: readonly string[]): MutateArgs {
  const args: MutateArgs = { oracle: MutateOracle.Narrow, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") args.help = true;
    else if (flag === "--runs") {
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < 1) throw new MutateUsageError(`--runs needs an integer >= 1, got ${value === undefined ? "nothing" : JSON.stringify(value)}; ${SEE_HELP}`);
      args.runs = n;
      i++;
    } else if (flag === "--only") {
      if (value === undefined || value.split(",").every((part) => part.length === 0)) throw new MutateUsageError(`--only needs a part of a mutant's id (e.g. Release:), got ${value === undefined ? "nothing" : JSON.stringify(value)}; ${SEE_HELP}`);
      args.only = value;
      i++;
    } else if (flag === "--oracle") {
      if (!Object.values(MutateOracle).includes(value as MutateOracle)) throw new MutateUsageError(`--oracle is narrow (the model) or wide (the old model, to compare), got ${value === undefined ? "nothing" : JSON.stringify(value)}; ${SEE_HELP}`);
      args.oracle = value as MutateOracle;
      i++;
    } else throw new MutateUsageError(`unknown argument ${JSON.stringify(flag)}; ${SEE_HELP}`);
  }
  return args;
}
