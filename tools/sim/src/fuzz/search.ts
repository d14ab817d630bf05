/**
 * The search: fast-check draws hostile scenarios, the simulation runs each against the real components, the
 * oracle judges. On a violation fast-check shrinks the scenario to a minimal one and reports the seed and path
 * that replay it exactly.
 */
import { focusArbitrary, focusSettings, type Focus } from "./focus";
import fc from "fast-check";
import { classify, type HoleClass } from "./classify";
import { scenarioArbitrary } from "../scenario/generator";
import { violations, type OracleConfig, type Violation } from "../oracle/model";
import { runScenario } from "../run";
import type { FaultKind, Observation, Scenario } from "../scenario/shape";
import { settingsFor, settingsKey, simSettings, type PropsOverrides, type SimSettings } from "../settings";
import { accepts, SettingsMode } from "../scenario/settings-space";
import { domainCaseArbitrary } from "../domain/cases";
import { DomainMode, type SimDomain } from "../domain/space";

interface FuzzOptions {
  readonly runs: number;
  readonly seed?: number;
  /** fast-check's replay path of a reported counterexample. */
  readonly path?: string;
  readonly maxOps?: number;
  /** Streams of about this many messages (see ScenarioShape); the default search draws ~6. */
  readonly messages?: number;
  /** A focused search instead of the default mix (fuzz/focus.ts). */
  readonly focus?: Focus;
  /** Faults from these sets only (ScenarioShape.faultSets). */
  readonly faultSets?: readonly (readonly FaultKind[])[];
  /** Every scenario under these settings (a mutant's): no props are drawn. */
  readonly settings?: SimSettings;
  /** The settings of drawn props (a mutant's: its definition and construct, mutants/mutate.ts); default: the project's. */
  readonly settingsOf?: (overrides: PropsOverrides, domain?: SimDomain) => SimSettings;
  /** The id of the mutant `settingsOf` runs (the report's replay command names it). */
  readonly mutant?: string;
  /** Which props the scenarios run under (scenario/settings-space.ts; default: the example's only, as before). */
  readonly settingsMode?: SettingsMode;
  /** Which domain the scenarios run under (domain/space.ts; default: the payments example's, as before). */
  readonly domainMode?: DomainMode;
  /** Count only violations of this class as failures (the hunt: how long the search takes to find one class). */
  readonly hunt?: HoleClass;
  /** Known findings not to stop at (each must be reported; the report lists how often each was met). */
  readonly skip?: readonly HoleClass[];
  /** Stop at the first failure without shrinking (mutation runs only need to know a mutant dies). */
  readonly noShrink?: boolean;
  /** Called after every run (progress). */
  readonly onRun?: (n: number) => void;
  /** The model's fate allowances (default: oracle/allowances.ts); another set only to compare models. */
  readonly allowances?: OracleConfig["allowances"];
}

export interface FuzzTotals {
  runs: number;
  messages: number;
  charges: number;
  executions: number;
  dynamoCalls: number;
  invocations: number;
  virtualMs: number;
  fates: Record<string, number>;
  faultsFired: number;
  /** Distinct (fate, had-fault, kinds of operation in the scenario) seen: the kinds of outcome met. */
  outcomes: Set<string>;
  /** State machine transitions taken (fuzz/coverage.ts): with the definition, the states and paths covered. */
  transitions: Set<string>;
  /** Scenarios run under drawn props (not the example's defaults). */
  settingsDrawn: number;
  /** Scenarios run under a drawn domain (not the payments example's). */
  domainsDrawn: number;
  /** Scenarios run in FIFO mode (`fifo: true` drawn). */
  fifoDrawn: number;
  /** Violations a named opt-out set aside (oracle/opt-outs.ts), by its name. */
  setAside: Record<string, number>;
}

export interface FuzzReport {
  readonly seed: number;
  /** The definition the runs executed (for the coverage figures). */
  readonly definition: Record<string, unknown>;
  /** Processes the runs were shared out over (fuzz/jobs.ts); the seed is then the failing process's, or the first. */
  readonly jobs?: number;
  /** The generator's shape: a replay must draw from the same one. */
  readonly shape: { readonly maxOps?: number; readonly messages?: number; readonly focus?: Focus; readonly settings?: SettingsMode; readonly domain?: DomainMode; readonly mutant?: string };
  readonly totals: FuzzTotals;
  readonly elapsedMs: number;
  /** Violations of skipped classes met (counted per run, shrinking included). */
  readonly skipped: Readonly<Record<string, number>>;
  readonly failure?: {
    /** The props the scenario ran under (only those not left at their default). */
    readonly settings?: PropsOverrides;
    /** The drawn domain it ran under; none: the payments example's. */
    readonly domain?: SimDomain;
    readonly scenario: Scenario;
    readonly violations: readonly Violation[];
    readonly classes: readonly HoleClass[];
    readonly path: string;
    /** Runs until the first failure (before shrinking). */
    readonly numRuns: number;
    readonly shrinks: number;
  };
}

export function oracleConfig(settings: SimSettings, allowances?: OracleConfig["allowances"]): OracleConfig {
  const p = settings.props;
  return {
    allowances,
    retentionMs: p.retentionSeconds * 1000,
    queueRetentionMs: p.messageRetentionSeconds * 1000,
    rules: settings.rules,
    deadLetterRetentionMs: p.deadLetterRetentionSeconds * 1000,
    leaseMs: p.leaseSeconds * 1000,
    ageAlarmMs: p.oldestMessageAgeAlarmSeconds * 1000,
    optOuts: { nativeMoves: p.allowUnguardedDlqMoves, purge: p.allowQueuePurge },
    ...(p.fifo ? { fifo: { contentBasedDeduplication: p.contentBasedDeduplication, scope: p.highThroughputFifo ? ("messageGroup" as const) : ("queue" as const) } } : {}),
  };
}

class ViolationFound extends Error {
  constructor(readonly found: readonly Violation[]) {
    super(found.map((v) => `${v.message === undefined ? "" : `message #${v.message} `}${v.key === undefined ? "" : `key ${short(v.key)}: `}${v.what}`).join("\n"));
    this.name = "ViolationFound";
  }
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 60)}…(${text.length} chars)` : text;
}

function count(totals: FuzzTotals, scenario: Scenario, obs: Observation): void {
  totals.runs++;
  totals.messages += obs.messages.length;
  totals.charges += obs.charges.length;
  totals.executions += obs.stats.executions;
  totals.dynamoCalls += obs.stats.dynamoCalls;
  totals.invocations += obs.stats.invocations;
  totals.virtualMs += obs.stats.virtualMs;
  totals.faultsFired += obs.trace.filter((l) => l.includes(" fault ")).length;
  const kinds = [...new Set(scenario.ops.map((o) => o.op))].sort().join("+");
  for (const m of obs.messages) {
    totals.fates[m.fate] = (totals.fates[m.fate] ?? 0) + 1;
    totals.outcomes.add(`${m.fate}/${m.faulted ? "fault" : "clean"}/${kinds}`);
  }
  for (const t of obs.stats.transitions) totals.transitions.add(t);
}

export function emptyTotals(): FuzzTotals {
  return { runs: 0, messages: 0, charges: 0, executions: 0, dynamoCalls: 0, invocations: 0, virtualMs: 0, fates: {}, faultsFired: 0, outcomes: new Set(), transitions: new Set(), settingsDrawn: 0, domainsDrawn: 0, fifoDrawn: 0, setAside: {} };
}

/** Runs one scenario and throws `ViolationFound` when the oracle disagrees. */
export async function checkScenario(settings: SimSettings, scenario: Scenario, totals?: FuzzTotals, allowances?: OracleConfig["allowances"]): Promise<Observation> {
  const obs = await runScenario(settings, scenario);
  if (totals) count(totals, scenario, obs);
  const onSetAside = (rule: string) => {
    if (totals) totals.setAside[rule] = (totals.setAside[rule] ?? 0) + 1;
  };
  const found = violations(scenario, obs, { ...oracleConfig(settings, allowances), onSetAside });
  if (found.length > 0) throw new ViolationFound(found);
  return obs;
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const fixed = options.settings;
  const mode = fixed ? SettingsMode.Default : (options.settingsMode ?? SettingsMode.Default);
  const seed = options.seed ?? Date.now() % 2_147_483_647;
  const totals = emptyTotals();
  const started = performance.now();
  let last: readonly Violation[] = [];
  const skipped: Record<string, number> = {};
  // A focused space speaks the payments domain; a mutant's settings are the example's.
  const domainMode = options.focus || fixed ? DomainMode.Payments : (options.domainMode ?? DomainMode.Payments);
  const space = (domain: Parameters<typeof scenarioArbitrary>[0] = {}) =>
    options.focus ? focusArbitrary(options.focus) : scenarioArbitrary({ maxOps: options.maxOps, messages: options.messages, faultSets: options.faultSets, ...domain });
  const drawnCases = domainCaseArbitrary(domainMode, mode, space);
  // A focused space may draw props of its own (fuzz/focus.ts), over the mode's: the pair must be one the synth accepts.
  const focusProps = options.focus && !fixed ? focusSettings(options.focus) : undefined;
  const cases = focusProps
    ? fc.tuple(drawnCases, focusProps).map(([c, extra]) => ({ ...c, settings: { ...c.settings, ...extra } })).filter((c) => accepts(c.settings, c.domain))
    : drawnCases;
  const property = fc.asyncProperty(cases, async ({ settings: overrides, scenario, domain }) => {
    try {
      const drawn = settingsKey(overrides) !== "{}";
      if (drawn) totals.settingsDrawn++;
      if (domain) totals.domainsDrawn++;
      if (overrides.fifo) totals.fifoDrawn++;
      await checkScenario(fixed ?? (options.settingsOf ?? settingsFor)(overrides, domain), scenario, totals, options.allowances);
    } catch (thrown) {
      let error = thrown;
      if (!(error instanceof ViolationFound)) throw error;
      // A violation a skipped (known) class explains is counted and set aside; any other still fails the run.
      const known = (v: Violation) => classify(scenario, [v], domain).some((c) => options.skip?.includes(c));
      for (const v of error.found.filter(known)) for (const c of classify(scenario, [v], domain).filter((k) => options.skip?.includes(k))) skipped[c] = (skipped[c] ?? 0) + 1;
      const found = error.found.filter((v) => !known(v));
      if (found.length === 0) return;
      if (options.hunt && !classify(scenario, found, domain).includes(options.hunt)) return;
      error = new ViolationFound(found);
      last = (error as ViolationFound).found;
      throw error;
    }
    options.onRun?.(totals.runs);
  });
  const result = await fc.check(property, { numRuns: options.runs, seed, path: options.path, endOnFailure: options.noShrink === true });
  const elapsedMs = performance.now() - started;
  // Drawn props change the definition's figures, never its states and transitions: the coverage is out of one.
  const definition = (fixed ?? simSettings()).definition;
  const shape = { maxOps: options.maxOps, messages: options.messages, ...(options.focus ? { focus: options.focus } : {}), ...(mode === SettingsMode.Default ? {} : { settings: mode }), ...(domainMode === DomainMode.Payments ? {} : { domain: domainMode }), ...(options.mutant ? { mutant: options.mutant } : {}) };
  if (!result.failed || !result.counterexample) return { seed, definition, shape, totals, elapsedMs, skipped };
  // A run that threw instead of ending (a mutant whose state the drawn definition lacks, a bug in the world) is a
  // failure too: the report names the error, since there is no violation to name.
  const broke = result.errorInstance instanceof ViolationFound ? undefined : result.errorInstance;
  const found = last.length > 0 || broke === undefined ? last : [{ what: `the run broke: ${broke instanceof Error ? broke.message.split("\n")[0] : String(broke)}` }];
  return {
    seed,
    definition,
    shape,
    totals,
    elapsedMs,
    skipped,
    failure: {
      settings: result.counterexample[0].settings,
      ...(result.counterexample[0].domain ? { domain: result.counterexample[0].domain } : {}),
      scenario: result.counterexample[0].scenario,
      violations: found,
      classes: classify(result.counterexample[0].scenario, found, result.counterexample[0].domain),
      path: result.counterexamplePath ?? "",
      numRuns: result.numRuns,
      shrinks: result.numShrinks,
    },
  };
}
