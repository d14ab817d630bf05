/**
 * Mutation score of the proof: every mutant of the rendered state machine is run against the fast proof (a fixed
 * fuzz budget in the simulation); a mutant is killed when the oracle reports a violation or the run breaks.
 * Survivors are either listed as equivalent, with the argument, or reported as gaps in the proof.
 */
import type { AllowanceRule } from "../oracle/allowances";
import { HoleClass } from "../fuzz/classify";
import { EQUIVALENT_MUTANTS } from "./equivalent";
import { fuzz } from "../fuzz/search";
import { mutantsOf, type Mutant } from "./semantic";
import { FIFO_MUTATE_SETTINGS, fifoMutants } from "./fifo";
import { BATCH_MUTATE_SETTINGS, batchMutantSet, PER_RECORD_MUTATE_SETTINGS } from "./batch";
import type { Focus } from "../fuzz/focus";
import { redrivePathMutants } from "./redrive-path";
import { rollbackMutants } from "./rollback";
import { FaultKind } from "../scenario/shape";
import { settingsKey, simSettings, type PropsOverrides, type SimSettings } from "../settings";
import { domainKey, type SimDomain } from "../domain/space";
import { renderPipelineDefinition } from "@effectively-once/statemachines";

export const MutantStatus = { Killed: "killed", Survived: "survived", Equivalent: "equivalent" } as const;
export type MutantStatus = (typeof MutantStatus)[keyof typeof MutantStatus];

interface MutantResult {
  readonly mutant: Mutant;
  readonly status: MutantStatus;
  /** How it died (the first violation or error), or why it is equivalent. */
  readonly note: string;
  readonly runs: number;
  /** The budget that killed it: the default mix, the faults focused on its state, or the default mix run longer. */
  readonly budget?: "default" | "focused" | "extended";
}

const F = FaultKind;
/** How many times the default budget a survivor of the default and focused budgets gets before it is reported. */
const EXTENDED_BUDGET = 4;
/**
 * The faults that reach each state's own code paths, in the sets that must meet (a failed invocation and a throttled
 * release on one message): a mutant the default mix spares meets these next, with the same number of runs.
 */
const FOCUS: ReadonlyMap<string, readonly (readonly FaultKind[])[]> = new Map([
  ["Claim", [[F.LedgerBlip], [F.LedgerLostAnswer], [F.LedgerFail], [F.WorkerPause]]],
  ["Inspect", [[F.LedgerBlip], [F.LedgerReadFail], [F.LedgerLostAnswer]]],
  ["Decide", [[F.LedgerBlip], [F.LedgerLostAnswer], [F.WorkerPause], [F.FnHang]]],
  ["Invoke", [[F.FnBlip], [F.FnCrashBefore], [F.FnThrottle], [F.FnCrashAfter], [F.FnTimeout]]],
  // The misclassification mutants of every ledger state at once (mutants/misclassification.ts).
  ["Ledger", [[F.LedgerFail], [F.LedgerReadFail], [F.LedgerBlip]]],
  ["Complete", [[F.LedgerBlip], [F.WorkerPause], [F.LedgerReadFail]]],
  ["Release", [[F.FnCrashBefore, F.LedgerBlip], [F.FnThrottle, F.LedgerBlip], [F.FnHang], [F.FnCrashAfter, F.LedgerReadFail]]],
  ["AfterRelease", [[F.FnCrashBefore], [F.FnThrottle], [F.FnCrashAfter]]],
  ["Quarantine", [[F.DlqBlip], [F.QuarantineFail]]],
  ["QuarantineFollower", [[F.DlqBlip], [F.QuarantineFail]]],
  // FIFO mode (mutants/fifo.ts and the FIFO definition's own states): a record of a group that must be retried, on
  // some receives or on every one (its last receive), with the records of its group behind it.
  ["FIFO", [[F.FnCrashBefore], [F.FnThrottle], [F.FnCrashBefore, F.QuarantineFail], [F.LedgerReadFail]]],
  ["GroupNext", [[F.FnCrashBefore], [F.FnThrottle]]],
  ["HoldRest", [[F.FnCrashBefore], [F.FnThrottle]]],
  ["LastReceive", [[F.FnThrottle], [F.FnCrashBefore, F.QuarantineFail]]],
  // One invocation per batch (mutants/batch.ts): an answer that omits a record, a crash after some records, a timeout.
  ["Answered", [[F.FnCrashBefore], [F.FnCrashAfter], [F.FnTimeout], [F.FnHang]]],
  ["Restore", [[F.FnCrashBefore], [F.FnCrashAfter]]],
  ["InvokeBatch", [[F.FnBlip], [F.FnThrottle], [F.FnCrashAfter], [F.FnTimeout]]],
]);

function focusOf(mutant: Mutant): readonly (readonly FaultKind[])[] | undefined {
  const path = mutant.id.slice(0, mutant.id.indexOf(":"));
  return FOCUS.get(path.slice(path.lastIndexOf("/") + 1));
}

/** States whose mistakes show only in a focused space (fuzz/focus.ts): their mutants are searched there too. */
const SPACE_FOCUS: ReadonlyMap<string, Focus> = new Map([
  ["Recognise", "redrive-paths"],
  ["RedriveAllowPolicy", "redrive-paths"],
  ["Filter", "redrive-paths"],
  ["a48d984", "redrive-paths"],
  ["Witnesses", "ledger-loss"],
  // One invocation per batch: a conflict the function finds inside a batch's answer (a lost claim, then another payload).
  ["Answered", "batch-conflict"],
]);

/** A mutant's settings for some props: its definition, compiled once per props, and what it drops of the construct. */
export function mutantSettingsOf(mutant: Mutant): (overrides: PropsOverrides, domain?: SimDomain) => SimSettings {
  const cache = new Map<string, SimSettings>();
  return (overrides, domain) => {
    const key = `${settingsKey(overrides)}|${domainKey(domain)}`;
    let settings = cache.get(key);
    if (!settings) cache.set(key, (settings = { ...simSettings(overrides, (p) => mutant.apply(renderPipelineDefinition(p)), domain), construct: mutant.construct }));
    return settings;
  };
}

function spaceOf(mutant: Mutant): Focus | undefined {
  const path = mutant.id.slice(0, mutant.id.indexOf(":"));
  return SPACE_FOCUS.get(path.slice(path.lastIndexOf("/") + 1));
}

/** The states only FIFO mode's definition has (statemachines/src/fifo.ts): their generic mutants run under FIFO settings. */
const FIFO_STATES = new Set(["StartGroup", "NextRecord", "LastReceive", "Settle", "GroupNext", "HoldRest", "GroupDone"]);

/** FIFO mode's mutants: the order-breaking ones, and the generic mutants of the FIFO definition's own states. */
function fifoMutantSet(): Mutant[] {
  const definition = simSettings(FIFO_MUTATE_SETTINGS).definition;
  const own = mutantsOf(definition).filter((m) => FIFO_STATES.has(m.id.slice(0, m.id.indexOf(":")).split("/").pop() ?? ""));
  return [...fifoMutants(), ...own.map((m) => ({ ...m, id: `FIFO ${m.id}`, description: `FIFO ${m.description}` }))];
}

interface MutateOptions {
  /** Fuzz runs per mutant (default 150). */
  readonly runs?: number;
  readonly seed?: number;
  /** Only mutants whose id contains this text (or, comma-separated, any of these texts). */
  readonly filter?: string;
  /** The model's fate allowances (default: oracle/allowances.ts; WIDE_ALLOWANCES shows what the old model let live). */
  readonly allowances?: readonly AllowanceRule[];
  readonly onResult?: (r: MutantResult) => void;
}

/** Classes of violation the unmutated pipeline is known to show, set aside and counted (none: the last is fixed). */
const KNOWN_FINDINGS: HoleClass[] = [];

export class BaselineNotGreen extends Error {
  override name = "BaselineNotGreen";
}

export class NoMutantMatches extends Error {
  override name = "NoMutantMatches";
}

/** The mutant with this id, or the one whose id contains it (`npm run sim:search -- --mutant`). */
export function mutantById(id: string): Mutant {
  const { definition, props } = simSettings(PER_RECORD_MUTATE_SETTINGS);
  // The batch mutants too (their ids start with BATCH): replay one with --focus batch-conflict, which draws batch mode.
  const batch = batchMutantSet(simSettings(BATCH_MUTATE_SETTINGS).definition);
  const all = [...mutantsOf(definition), ...redrivePathMutants(props.messageRetentionSeconds, props.retentionSeconds), ...rollbackMutants(), ...batch];
  const exact = all.find((m) => m.id === id);
  const matching = all.filter((m) => m.id.includes(id));
  if (exact) return exact;
  if (matching.length === 1) return matching[0];
  throw new NoMutantMatches(`${matching.length === 0 ? "no" : matching.length} mutant id${matching.length === 0 ? " contains" : "s contain"} ${JSON.stringify(id)}; ids look like Rules/a48d984:every-path-open`);
}

export async function mutate(options: MutateOptions = {}): Promise<MutantResult[]> {
  const runs = options.runs ?? 150;
  const seed = options.seed ?? 20261201;
  const allowances = options.allowances;
  const { definition, props } = simSettings(PER_RECORD_MUTATE_SETTINGS);
  const results: MutantResult[] = [];
  const fifo = new Set(fifoMutantSet().map((m) => m.id));
  const batchSet = batchMutantSet(simSettings(BATCH_MUTATE_SETTINGS).definition);
  const batch = new Set(batchSet.map((m) => m.id));
  // `--only a,b`: the mutants whose id contains any of the parts.
  const parts = options.filter?.split(",").filter((part) => part.length > 0) ?? [];
  const chosen = [...mutantsOf(definition), ...redrivePathMutants(props.messageRetentionSeconds, props.retentionSeconds), ...rollbackMutants(), ...fifoMutantSet(), ...batchSet].filter((m) => parts.length === 0 || parts.some((part) => m.id.includes(part)));
  if (chosen.length === 0) throw new NoMutantMatches(`no mutant id contains ${JSON.stringify(options.filter)}; ids look like ProcessBatch/Claim:retry-0:without:DynamoDB.SdkClientException`);
  // Chosen first, so an --only that matches nothing is refused before the baseline's minutes.
  const baseline = await fuzz({ runs, seed, settings: simSettings(PER_RECORD_MUTATE_SETTINGS), skip: KNOWN_FINDINGS, allowances });
  if (baseline.failure) {
    throw new BaselineNotGreen(`the unmutated pipeline already violates the model (${baseline.failure.violations[0]?.what}); fix that first: npm run sim:search -- --seed ${seed} --runs ${runs}`);
  }
  if (chosen.some((m) => fifo.has(m.id))) {
    // FIFO mode's mutants run under FIFO settings: the unmutated FIFO pipeline must keep every promise there first.
    const fifoBaseline = await fuzz({ runs, seed, settings: simSettings(FIFO_MUTATE_SETTINGS), skip: KNOWN_FINDINGS, allowances });
    if (fifoBaseline.failure) {
      throw new BaselineNotGreen(`the unmutated FIFO pipeline already violates the model (${fifoBaseline.failure.violations[0]?.what}); fix that first (FIFO_MUTATE_SETTINGS, seed ${seed})`);
    }
  }
  if (chosen.some((m) => batch.has(m.id))) {
    // The batch mutants run under batch settings: the unmutated batch pipeline must keep every promise there first.
    const batchBaseline = await fuzz({ runs, seed, settings: simSettings(BATCH_MUTATE_SETTINGS), skip: KNOWN_FINDINGS, allowances });
    if (batchBaseline.failure) {
      throw new BaselineNotGreen(`the unmutated batch pipeline already violates the model (${batchBaseline.failure.violations[0]?.what}); fix that first (BATCH_MUTATE_SETTINGS, seed ${seed})`);
    }
  }
  for (const mutant of chosen) {
    let result: MutantResult;
    try {
      const overrides = fifo.has(mutant.id) ? FIFO_MUTATE_SETTINGS : batch.has(mutant.id) ? BATCH_MUTATE_SETTINGS : PER_RECORD_MUTATE_SETTINGS;
      const settingsOf = mutantSettingsOf(mutant);
      const settings = settingsOf(overrides);
      let report = await fuzz({ runs, seed, settings, skip: KNOWN_FINDINGS, noShrink: true, allowances });
      let budget: MutantResult["budget"] = "default";
      const focus = focusOf(mutant);
      if (!report.failure && focus) {
        report = await fuzz({ runs, seed, settings, skip: KNOWN_FINDINGS, noShrink: true, faultSets: focus, allowances });
        budget = "focused";
      }
      const space = spaceOf(mutant);
      if (!report.failure && space) {
        // The space draws its own props (standard or FIFO, an attribute filter or none) under the mutant's rules.
        report = await fuzz({ runs, seed, settingsOf, skip: KNOWN_FINDINGS, noShrink: true, focus: space, allowances });
        budget = "focused";
      }
      if (!report.failure && !EQUIVALENT_MUTANTS.has(mutant.id)) {
        // A survivor of both gets the default mix again, EXTENDED_BUDGET times longer, before it is called a survivor:
        // rare paths (a blip's one error name on a state reached only by a duplicate) need more draws, not other ones.
        report = await fuzz({ runs: runs * EXTENDED_BUDGET, seed, settings, skip: KNOWN_FINDINGS, noShrink: true, allowances });
        budget = "extended";
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
  const when = r.status === MutantStatus.Killed ? ` (run ${r.runs}${r.budget === "default" || r.budget === undefined ? "" : ` of the ${r.budget} budget`})` : "";
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
