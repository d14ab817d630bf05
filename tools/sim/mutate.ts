/**
 * Mutation score of the proof: every mutant of the rendered state machine is run against the fast proof (a fixed
 * fuzz budget in the simulation); a mutant is killed when the oracle reports a violation or the run breaks.
 * Survivors are either listed as equivalent, with the argument, or reported as gaps in the proof.
 */
import type { AllowanceRule } from "./allowances";
import { HoleClass } from "./classify";
import { EQUIVALENT_MUTANTS } from "./equivalent-mutants";
import { fuzz } from "./fuzz";
import { mutantsOf, type Mutant } from "./mutants";
import { FaultKind } from "./scenario";
import { simSettings } from "./settings";
import { renderPipelineDefinition } from "@effectively-once/statemachines";

export const MutantStatus = { Killed: "killed", Survived: "survived", Equivalent: "equivalent" } as const;
export type MutantStatus = (typeof MutantStatus)[keyof typeof MutantStatus];

interface MutantResult {
  readonly mutant: Mutant;
  readonly status: MutantStatus;
  /** How it died (the first violation or error), or why it is equivalent. */
  readonly note: string;
  readonly runs: number;
  /** The budget that killed it: the default mix, or the faults focused on its state. */
  readonly budget?: "default" | "focused";
}

const F = FaultKind;
/**
 * The faults that reach each state's own code paths, in the sets that must meet (a failed invocation and a throttled
 * release on one message): a mutant the default mix spares meets these next, with the same number of runs.
 */
const FOCUS: ReadonlyMap<string, readonly (readonly FaultKind[])[]> = new Map([
  ["Claim", [[F.LedgerBlip], [F.LedgerLostAnswer], [F.LedgerFail], [F.WorkerPause]]],
  ["Inspect", [[F.LedgerBlip], [F.LedgerReadFail], [F.LedgerLostAnswer]]],
  ["Decide", [[F.LedgerBlip], [F.LedgerLostAnswer], [F.WorkerPause], [F.FnHang]]],
  ["Invoke", [[F.FnBlip], [F.FnCrashBefore], [F.FnThrottle], [F.FnCrashAfter], [F.FnTimeout]]],
  // The misclassification mutants of every ledger state at once (misclassification-mutants.ts).
  ["Ledger", [[F.LedgerFail], [F.LedgerReadFail], [F.LedgerBlip]]],
  ["Complete", [[F.LedgerBlip], [F.WorkerPause], [F.LedgerReadFail]]],
  ["Release", [[F.FnCrashBefore, F.LedgerBlip], [F.FnThrottle, F.LedgerBlip], [F.FnHang], [F.FnCrashAfter, F.LedgerReadFail]]],
  ["AfterRelease", [[F.FnCrashBefore], [F.FnThrottle], [F.FnCrashAfter]]],
  ["Quarantine", [[F.DlqBlip], [F.QuarantineFail]]],
  ["QuarantineFollower", [[F.DlqBlip], [F.QuarantineFail]]],
]);

function focusOf(mutant: Mutant): readonly (readonly FaultKind[])[] | undefined {
  const path = mutant.id.slice(0, mutant.id.indexOf(":"));
  return FOCUS.get(path.slice(path.lastIndexOf("/") + 1));
}

interface MutateOptions {
  /** Fuzz runs per mutant (default 150). */
  readonly runs?: number;
  readonly seed?: number;
  /** Only mutants whose id contains this text. */
  readonly filter?: string;
  /** The model's fate allowances (default: allowances.ts; WIDE_ALLOWANCES shows what the old model let live). */
  readonly allowances?: readonly AllowanceRule[];
  readonly onResult?: (r: MutantResult) => void;
}

/** Known findings on main, set aside as in the budget (docs/simulation.md, "Findings on main"). */
/** Classes of violation the unmutated pipeline is known to show, set aside and counted (none: the last is fixed). */
const KNOWN_FINDINGS: HoleClass[] = [];

export class BaselineNotGreen extends Error {
  override name = "BaselineNotGreen";
}

export class NoMutantMatches extends Error {
  override name = "NoMutantMatches";
}

export async function mutate(options: MutateOptions = {}): Promise<MutantResult[]> {
  const runs = options.runs ?? 150;
  const seed = options.seed ?? 20261201;
  const allowances = options.allowances;
  const baseline = await fuzz({ runs, seed, skip: KNOWN_FINDINGS, allowances });
  if (baseline.failure) {
    throw new BaselineNotGreen(`the unmutated pipeline already violates the model (${baseline.failure.violations[0]?.what}); fix that first: npm run sim:search -- --seed ${seed} --runs ${runs}`);
  }
  const definition = simSettings().definition;
  const results: MutantResult[] = [];
  const chosen = mutantsOf(definition).filter((m) => !options.filter || m.id.includes(options.filter));
  if (chosen.length === 0) throw new NoMutantMatches(`no mutant id contains ${JSON.stringify(options.filter)}; ids look like ProcessBatch/Claim:retry-0:without:DynamoDB.SdkClientException`);
  for (const mutant of chosen) {
    let result: MutantResult;
    try {
      const settings = simSettings({}, (p) => mutant.apply(renderPipelineDefinition(p)));
      let report = await fuzz({ runs, seed, settings, skip: KNOWN_FINDINGS, noShrink: true, allowances });
      let budget: MutantResult["budget"] = "default";
      const focus = focusOf(mutant);
      if (!report.failure && focus) {
        report = await fuzz({ runs, seed, settings, skip: KNOWN_FINDINGS, noShrink: true, faultSets: focus, allowances });
        budget = "focused";
      }
      result = report.failure
        ? { mutant, status: MutantStatus.Killed, note: report.failure.violations[0]?.what ?? "violation", runs: report.failure.numRuns, budget }
        : EQUIVALENT_MUTANTS.has(mutant.id)
          ? { mutant, status: MutantStatus.Equivalent, note: EQUIVALENT_MUTANTS.get(mutant.id) ?? "", runs }
          : { mutant, status: MutantStatus.Survived, note: "no violation in the budget", runs };
    } catch (error) {
      result = { mutant, status: MutantStatus.Killed, note: `run broke: ${(error as Error).message.split("\n")[0].slice(0, 120)}`, runs: 0 };
    }
    results.push(result);
    options.onResult?.(result);
  }
  return results;
}

/** One mutant's line of the report. */
export function mutantLine(r: MutantResult): string {
  const when = r.status === MutantStatus.Killed ? ` (run ${r.runs}${r.budget === "focused" ? " of the focused budget" : ""})` : "";
  return `${r.status.padEnd(10)} ${r.mutant.description.slice(0, 110)}${when}\n           ${r.note.slice(0, 160)}`;
}

/** Killed / survived / equivalent per state of the definition, then the totals and the score. */
export function mutateTable(results: readonly MutantResult[]): string {
  const statuses = [MutantStatus.Killed, MutantStatus.Survived, MutantStatus.Equivalent];
  const byState = new Map<string, Record<MutantStatus, number>>();
  const add = (state: string, status: MutantStatus) => {
    const row = byState.get(state) ?? { killed: 0, survived: 0, equivalent: 0 };
    row[status]++;
    byState.set(state, row);
  };
  for (const r of results) add(r.mutant.id.slice(0, r.mutant.id.indexOf(":")), r.status);
  for (const r of results) add("all", r.status);
  const line = (cells: (string | number)[]) => cells.map((c, i) => (i === 0 ? String(c).padEnd(40) : String(c).padStart(11))).join("");
  return [line(["state", ...statuses]), ...[...byState].map(([state, row]) => line([state, ...statuses.map((st) => row[st])]))].join("\n");
}

export function mutateReportText(results: readonly MutantResult[], withLines = true): string {
  const count = (s: MutantStatus) => results.filter((r) => r.status === s).length;
  const killed = count(MutantStatus.Killed);
  const equivalent = count(MutantStatus.Equivalent);
  const survived = count(MutantStatus.Survived);
  const score = killed + survived === 0 ? 100 : (100 * killed) / (killed + survived);
  return [
    ...(withLines ? results.map(mutantLine) : []),
    "",
    mutateTable(results),
    "",
    `mutants ${results.length}: killed ${killed}, survived ${survived}, equivalent ${equivalent}; score ${score.toFixed(1)}% of non-equivalent mutants killed`,
  ].join("\n");
}
