/** `npm run sim:search` arguments and report text. */
import { HoleClass } from "./classify";
import { coverageOf } from "./coverage";
import { FOCUS, type Focus } from "./focus";
import type { FuzzReport } from "./search";
import { SettingsMode } from "../scenario/settings-space";
import { DomainMode } from "../domain/space";

export const FUZZ_HELP = `npm run sim:search -- [--runs N] [--seed S] [--jobs J] [--path P] [--max-ops N | --messages N | --focus NAME] [--settings MODE] [--domain MODE] [--mutant ID] [--hunt CLASS] [--skip CLASS] [--trace] [--json] [--help]

Draws N hostile scenarios (default 200), runs each in the deterministic simulation (real state machine,
function code, DynamoDB semantics; virtual clock) and checks it against the reference model. On a violation
it shrinks the scenario, prints it with the replay command and exits 1.

  --runs N       scenarios to draw (default 200)
  --seed S       fast-check seed (default: from the clock, printed)
  --jobs J       J processes (one per core), seeds S, S+1, …, the runs shared out, one report (default 1)
  --path P       replay one counterexample: with --seed, the path printed by a failing run
  --max-ops N    operations per scenario (default 20: ~6 messages)
  --messages N   streams of about N messages each (1 to 2N), with other operations and faults in proportion
  --focus NAME   a focused space instead of the default mix (${FOCUS.join(", ")}; tools/sim/src/fuzz/focus.ts)
  --settings M   the construct's props per scenario: mixed (default: half the example's, half drawn from what the
                 synth accepts), random (all drawn), default (the example's only: replays of earlier searches)
  --domain M     the domain per scenario: mixed (default: half the payments example's, half drawn: key parts,
                 payload fields, rules, operation, filter), random (all drawn), payments (replays of earlier searches)
  --mutant ID    search a mutant of the pipeline instead (an id \`npm run sim:mutants\` prints, or a unique part of
                 one): e.g. --focus redrive-paths --mutant a48d984 runs the rules before SQS's redrive paths were closed
  --hunt CLASS   count only violations of one class (${Object.values(HoleClass).join(", ")})
  --skip CLASS   do not stop at violations of a known class (repeatable); the report counts them
  --trace        also print the counterexample's run, one line per event with its virtual time
  --json         print the report as JSON
  --help, -h     print this text and exit

Exit codes:
  0  no violation in the runs (or a --path replay that keeps every promise)
  1  a violation: the report ends with the shrunk scenario and its replay command
  2  bad usage (an unknown flag, a bad value, a --mutant no id contains) or the search itself broke`;

export class FuzzUsageError extends Error {
  override name = "FuzzUsageError";
}

export interface FuzzArgs {
  runs: number;
  seed?: number;
  jobs: number;
  path?: string;
  maxOps?: number;
  messages?: number;
  focus?: Focus;
  settings: SettingsMode;
  domain: DomainMode;
  hunt?: HoleClass;
  mutant?: string;
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
  const args: FuzzArgs = { runs: 200, jobs: 1, settings: SettingsMode.Mixed, domain: DomainMode.Mixed, skip: [], json: false, trace: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") args.help = true;
    else if (flag === "--json") args.json = true;
    else if (flag === "--trace") args.trace = true;
    else if (flag === "--runs") { args.runs = integer(flag, value, 1); i++; }
    else if (flag === "--seed") { args.seed = integer(flag, value, -2_147_483_648); i++; }
    else if (flag === "--max-ops") { args.maxOps = integer(flag, value, 1); i++; }
    else if (flag === "--messages") { args.messages = integer(flag, value, 1); i++; }
    else if (flag === "--jobs") { args.jobs = integer(flag, value, 1); i++; }
    else if (flag === "--focus") {
      if (!FOCUS.includes(value as Focus)) throw new FuzzUsageError(`--focus needs one of ${FOCUS.join(", ")}, got ${JSON.stringify(value)}`);
      args.focus = value as Focus;
      i++;
    }
    else if (flag === "--path") {
      if (!value || !/^\d+(:\d+)*$/.test(value)) throw new FuzzUsageError(`--path needs a fast-check path such as 12:0:3, got ${JSON.stringify(value)}`);
      args.path = value;
      i++;
    } else if (flag === "--settings") {
      if (!Object.values(SettingsMode).includes(value as SettingsMode)) throw new FuzzUsageError(`--settings needs one of ${Object.values(SettingsMode).join(", ")}, got ${JSON.stringify(value)}`);
      args.settings = value as SettingsMode;
      i++;
    } else if (flag === "--domain") {
      if (!Object.values(DomainMode).includes(value as DomainMode)) throw new FuzzUsageError(`--domain needs one of ${Object.values(DomainMode).join(", ")}, got ${JSON.stringify(value)}`);
      args.domain = value as DomainMode;
      i++;
    } else if (flag === "--mutant") {
      if (!value) throw new FuzzUsageError("--mutant needs a mutant's id (npm run sim:mutants prints them)");
      args.mutant = value;
      i++;
    } else if (flag === "--hunt") {
      if (!Object.values(HoleClass).includes(value as HoleClass)) throw new FuzzUsageError(`--hunt needs one of ${Object.values(HoleClass).join(", ")}, got ${JSON.stringify(value)}`);
      args.hunt = value as HoleClass;
      i++;
    } else if (flag === "--skip") {
      if (!Object.values(HoleClass).includes(value as HoleClass)) throw new FuzzUsageError(`--skip needs one of ${Object.values(HoleClass).join(", ")}, got ${JSON.stringify(value)}`);
      args.skip.push(value as HoleClass);
      i++;
    } else throw new FuzzUsageError(`unknown argument ${JSON.stringify(flag)}; see npm run sim:search -- --help`);
  }
  if (args.path !== undefined && args.seed === undefined) throw new FuzzUsageError("--path replays a counterexample of one seed: pass --seed too");
  if (args.path !== undefined && args.jobs > 1) throw new FuzzUsageError("--path replays one counterexample in one process: leave out --jobs");
  if (args.maxOps !== undefined && args.messages !== undefined) throw new FuzzUsageError("--max-ops and --messages shape the scenarios two ways: pass one of them");
  return args;
}

function row(cells: (string | number)[]): string {
  return cells.map((c, i) => (i === 0 ? String(c).padEnd(26) : String(c).padStart(12))).join(" ");
}

export function replayCommand(report: FuzzReport): string {
  if (!report.failure) return "";
  const { maxOps, messages, focus, settings, domain, mutant } = report.shape;
  // The settings mode is part of the draw: the path means another scenario under another mode.
  const shape = `${maxOps === undefined ? "" : ` --max-ops ${maxOps}`}${messages === undefined ? "" : ` --messages ${messages}`}${focus === undefined ? "" : ` --focus ${focus}`} --settings ${settings ?? SettingsMode.Default} --domain ${domain ?? DomainMode.Payments}${mutant === undefined ? "" : ` --mutant ${mutant}`}`;
  return `npm run sim:search -- --seed ${report.seed}${shape} --path ${report.failure.path} --runs 1`;
}

/**
 * One line for comparing runs: scenarios, messages, executions, throughput, and how much of the state machine
 * the runs covered (fuzz/coverage.ts).
 */
export function benchLine(report: FuzzReport): string {
  const t = report.totals;
  const c = coverageOf(report.definition, t.transitions);
  const perScenario = (n: number) => (t.runs === 0 ? "0" : (n / t.runs).toFixed(1));
  return [
    `bench: ${t.runs} scenarios`,
    `${t.messages} messages (${perScenario(t.messages)} per scenario)`,
    `${t.executions} executions`,
    `${Math.round(t.runs / (report.elapsedMs / 60_000))} schedules/min`,
    `states covered ${c.states}/${c.statesTotal}`,
    `transitions ${c.transitions}/${c.transitionsTotal}`,
    `violations ${report.failure ? report.failure.violations.length : 0}`,
  ].join(", ");
}

export function fuzzReportText(report: FuzzReport): string {
  const t = report.totals;
  const minutes = report.elapsedMs / 60_000;
  const coverage = coverageOf(report.definition, t.transitions);
  const lines = [
    row(["fuzz", "value"]),
    row(["seed", report.seed]),
    ...(report.jobs !== undefined && report.jobs > 1 ? [row(["processes", report.jobs])] : []),
    row(["schedules run", t.runs]),
    row(["under drawn props", t.settingsDrawn ?? 0]),
    row(["under drawn domains", t.domainsDrawn ?? 0]),
    row(["in FIFO mode", t.fifoDrawn ?? 0]),
    row(["schedules / minute", Math.round(t.runs / minutes)]),
    row(["messages", t.messages]),
    row(["charges", t.charges]),
    row(["executions", t.executions]),
    row(["DynamoDB calls", t.dynamoCalls]),
    row(["invocations", t.invocations]),
    row(["faults fired", t.faultsFired]),
    row(["states covered", `${coverage.states}/${coverage.statesTotal}`]),
    row(["transitions covered", `${coverage.transitions}/${coverage.transitionsTotal}`]),
    row(["outcome kinds", t.outcomes.size]),
    row(["virtual days", (t.virtualMs / 86_400_000).toFixed(1)]),
    row(["wall seconds", (report.elapsedMs / 1000).toFixed(1)]),
    "",
    row(["fate", "messages"]),
    ...Object.entries(t.fates)
      .sort()
      .map(([fate, n]) => row([fate, n])),
    "",
  ];
  const skipped = [
    ...Object.entries(report.skipped).map(([c, n]) => `skipped known finding ${c}: met ${n} time(s)`),
    ...Object.entries(t.setAside ?? {}).map(([rule, n]) => `set aside by the stack's opt-out ${rule}: ${n} violation(s) (the guarantee does not cover what the props allow)`),
  ];
  const missed = coverage.missed.length > 0 ? [`transitions never taken: ${coverage.missed.join(", ")}`] : [];
  if (!report.failure) return [...lines, ...skipped, ...missed, "violations: 0", benchLine(report)].join("\n");
  const f = report.failure;
  return [
    ...lines,
    ...skipped,
    `VIOLATION after ${f.numRuns} run(s), shrunk ${f.shrinks} time(s); class: ${f.classes.join(", ")}`,
    ...f.violations.map((v) => `  - ${v.message === undefined ? "" : `message #${v.message}: `}${v.what}${v.key ? ` [key ${v.key.length > 80 ? v.key.slice(0, 77) + "…" : v.key}]` : ""}`),
    `props (besides the example's defaults): ${JSON.stringify(f.settings ?? {})}`,
    `domain: ${f.domain ? JSON.stringify(f.domain) : "the payments example's"}`,
    "minimal scenario:",
    JSON.stringify(f.scenario, (_k, v: unknown) => (typeof v === "string" && v.length > 400 ? `${v.slice(0, 200)}…(${v.length} chars)` : v), 1),
    `replay: ${replayCommand(report)}`,
    benchLine(report),
  ].join("\n");
}
