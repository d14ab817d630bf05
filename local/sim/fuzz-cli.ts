/** `npm run fuzz` arguments and report text. */
import { HoleClass } from "./classify";
import type { FuzzReport } from "./fuzz";

export const FUZZ_HELP = `npm run fuzz -- [--runs N] [--seed S] [--path P] [--max-ops N] [--hunt CLASS] [--json]

Draws N hostile scenarios (default 200), runs each in the deterministic simulation (real state machine,
function code, DynamoDB semantics; virtual clock) and checks it against the reference model. On a violation
it shrinks the scenario, prints it with the replay command and exits 1.

  --seed S       fast-check seed (default: from the clock, printed)
  --path P       replay one counterexample: with --seed, the path printed by a failing run
  --max-ops N    operations per scenario (default 20)
  --hunt CLASS   count only violations of one class (${Object.values(HoleClass).join(", ")})
  --skip CLASS   do not stop at violations of a known class (repeatable); the report counts them
  --trace        also print the counterexample's run, one line per event with its virtual time
  --json         print the report as JSON`;

export class FuzzUsageError extends Error {
  override name = "FuzzUsageError";
}

interface FuzzArgs {
  runs: number;
  seed?: number;
  path?: string;
  maxOps?: number;
  hunt?: HoleClass;
  skip: HoleClass[];
  json: boolean;
  trace: boolean;
  help: boolean;
}

function integer(flag: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min) throw new FuzzUsageError(`${flag} needs an integer >= ${min}, got ${value === undefined ? "nothing" : JSON.stringify(value)}`);
  return n;
}

export function parseFuzzArgs(argv: readonly string[]): FuzzArgs {
  const args: FuzzArgs = { runs: 200, skip: [], json: false, trace: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") args.help = true;
    else if (flag === "--json") args.json = true;
    else if (flag === "--trace") args.trace = true;
    else if (flag === "--runs") (args.runs = integer(flag, value, 1)), i++;
    else if (flag === "--seed") (args.seed = integer(flag, value, -2_147_483_648)), i++;
    else if (flag === "--max-ops") (args.maxOps = integer(flag, value, 1)), i++;
    else if (flag === "--path") {
      if (!value || !/^\d+(:\d+)*$/.test(value)) throw new FuzzUsageError(`--path needs a fast-check path such as 12:0:3, got ${JSON.stringify(value)}`);
      args.path = value;
      i++;
    } else if (flag === "--hunt") {
      if (!Object.values(HoleClass).includes(value as HoleClass)) throw new FuzzUsageError(`--hunt needs one of ${Object.values(HoleClass).join(", ")}, got ${JSON.stringify(value)}`);
      args.hunt = value as HoleClass;
      i++;
    } else if (flag === "--skip") {
      if (!Object.values(HoleClass).includes(value as HoleClass)) throw new FuzzUsageError(`--skip needs one of ${Object.values(HoleClass).join(", ")}, got ${JSON.stringify(value)}`);
      args.skip.push(value as HoleClass);
      i++;
    } else throw new FuzzUsageError(`unknown argument ${JSON.stringify(flag)}; see npm run fuzz -- --help`);
  }
  if (args.path !== undefined && args.seed === undefined) throw new FuzzUsageError("--path replays a counterexample of one seed: pass --seed too");
  return args;
}

function row(cells: (string | number)[]): string {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(26) : String(c).padStart(12))).join(" ");
}

export function replayCommand(report: FuzzReport): string {
  return report.failure ? `npm run fuzz -- --seed ${report.seed} --path ${report.failure.path} --runs 1` : "";
}

export function fuzzReportText(report: FuzzReport): string {
  const t = report.totals;
  const minutes = report.elapsedMs / 60_000;
  const lines = [
    row(["fuzz", "value"]),
    row(["seed", report.seed]),
    row(["schedules run", t.runs]),
    row(["schedules / minute", Math.round(t.runs / minutes)]),
    row(["messages", t.messages]),
    row(["charges", t.charges]),
    row(["executions", t.executions]),
    row(["DynamoDB calls", t.dynamoCalls]),
    row(["invocations", t.invocations]),
    row(["faults fired", t.faultsFired]),
    row(["states covered", t.states.size]),
    row(["virtual days", (t.virtualMs / 86_400_000).toFixed(1)]),
    row(["wall seconds", (report.elapsedMs / 1000).toFixed(1)]),
    "",
    row(["fate", "messages"]),
    ...Object.entries(t.fates)
      .sort()
      .map(([fate, n]) => row([fate, n])),
    "",
  ];
  const skipped = Object.entries(report.skipped).map(([c, n]) => `skipped known finding ${c}: met ${n} time(s)`);
  if (!report.failure) return [...lines, ...skipped, "violations: 0"].join("\n");
  const f = report.failure;
  return [
    ...lines,
    ...skipped,
    `VIOLATION after ${f.numRuns} run(s), shrunk ${f.shrinks} time(s); class: ${f.classes.join(", ")}`,
    ...f.violations.map((v) => `  - ${v.message === undefined ? "" : `message #${v.message}: `}${v.what}${v.key ? ` [key ${v.key.length > 80 ? v.key.slice(0, 77) + "…" : v.key}]` : ""}`),
    "minimal scenario:",
    JSON.stringify(f.scenario, (_k, v: unknown) => (typeof v === "string" && v.length > 400 ? `${v.slice(0, 200)}…(${v.length} chars)` : v), 1),
    `replay: ${replayCommand(report)}`,
  ].join("\n");
}
