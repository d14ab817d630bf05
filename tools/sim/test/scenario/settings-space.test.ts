// The space's draws; the small budget run under drawn props is drawn-props-budget.test.ts (a file of its own, so the
// two halves run on different workers).
import fc from "fast-check";
import { assertPipelineInvariants } from "@effectively-once/pipeline";
import { scenarioArbitrary } from "../../src/scenario/generator";
import { settingsKey, simProps, type PropsOverrides } from "../../src/settings";
import { accepts, caseArbitrary, drawnSettings, fitScenario, settingsArbitrary, SettingsMode } from "../../src/scenario/settings-space";
import type { ResolvedPipelineProps } from "@effectively-once/pipeline/settings";

const drawn = fc.sample(drawnSettings, { numRuns: 400, seed: 22 });
const defaults = simProps({});

/** Each prop the search must move off its default, read from the resolved props. */
const PROPS: readonly [string, (p: ResolvedPipelineProps) => unknown][] = [
  ["messageRetentionSeconds", (p) => p.messageRetentionSeconds],
  ["deadLetterRetentionSeconds", (p) => p.deadLetterRetentionSeconds],
  ["retentionSeconds", (p) => p.retentionSeconds],
  ["visibilityTimeoutSeconds", (p) => p.visibilityTimeoutSeconds],
  ["maxReceiveCount", (p) => p.maxReceiveCount],
  ["leaseSeconds", (p) => p.leaseSeconds],
  ["executionTimeoutSeconds", (p) => p.executionTimeoutSeconds],
  ["function.timeoutSeconds", (p) => p.function.timeoutSeconds],
  ["batchSize", (p) => p.batchSize],
  ["maximumBatchingWindowSeconds", (p) => p.maximumBatchingWindowSeconds],
  ["maxConcurrency", (p) => p.maxConcurrency],
  ["lambdaRetries", (p) => p.lambdaRetries],
  ["ledgerRetry", (p) => JSON.stringify(p.ledgerRetry)],
  ["oldestMessageAgeAlarmSeconds", (p) => p.oldestMessageAgeAlarmSeconds],
];

describe("The settings space of the simulation", () => {
  it("yields only props the construct's own validation accepts", () => {
    for (const o of drawn) expect(() => assertPipelineInvariants(simProps(o))).not.toThrow();
  });

  it.each(PROPS)("moves %s off its default in some draws", (_name, read) => {
    const values = new Set(drawn.map((o) => JSON.stringify(read(simProps(o)))));
    values.delete(JSON.stringify(read(defaults)));
    expect(values.size).toBeGreaterThanOrEqual(2);
  });

  it("reaches both retention boundaries: a second less would be refused", () => {
    const less = (o: PropsOverrides, prop: "messageRetentionSeconds" | "deadLetterRetentionSeconds"): PropsOverrides => ({ ...o, [prop]: simProps(o)[prop] - 1 });
    // Lowering the source retention also lowers the DLQ's lower bound: keep the DLQ where it was.
    const tightSource = drawn.filter((o) => !accepts({ ...less(o, "messageRetentionSeconds"), deadLetterRetentionSeconds: simProps(o).deadLetterRetentionSeconds }));
    const tightDlq = drawn.filter((o) => !accepts(less(o, "deadLetterRetentionSeconds")));
    expect(tightSource.length).toBeGreaterThan(0);
    expect(tightDlq.length).toBeGreaterThan(0);
  });

  it("refuses what the construct refuses", () => {
    expect(accepts({})).toBe(true);
    expect(accepts({ messageRetentionSeconds: 60 })).toBe(false);
    expect(accepts({ deadLetterRetentionSeconds: 60 })).toBe(false);
  });

  it("keeps the example's props in about half of the mixed draws, none of the random ones, all of the default ones", () => {
    const share = (mode: SettingsMode, n: number) => fc.sample(settingsArbitrary(mode), { numRuns: n, seed: 5 }).filter((o) => settingsKey(o) === "{}").length / n;
    const mixed = share(SettingsMode.Mixed, 300);
    expect(mixed).toBeGreaterThan(0.35);
    expect(mixed).toBeLessThan(0.65);
    expect(share(SettingsMode.Random, 100)).toBeLessThan(0.05);
    expect(share(SettingsMode.Default, 50)).toBe(1);
  });

  it("draws the same cases from the same seed; the default mode draws the scenarios of earlier rounds", () => {
    const sample = (mode: SettingsMode) => fc.sample(caseArbitrary(mode, scenarioArbitrary()), { numRuns: 20, seed: 9 });
    expect(sample(SettingsMode.Mixed)).toEqual(sample(SettingsMode.Mixed));
    expect(sample(SettingsMode.Default).map((c) => c.scenario)).toEqual(fc.sample(scenarioArbitrary(), { numRuns: 20, seed: 9 }));
  });

  it("makes a poison message fail every receive the drawn queue allows", () => {
    const scenario = { seed: 0, pollers: 1, ops: [], faults: [{ message: 0, kind: "fn-crash-before" as const, receives: [1, 2, 3, 4, 5] }, { message: 0, kind: "fn-throttle" as const, receives: [2] }] };
    expect(fitScenario({}, scenario)).toBe(scenario);
    expect(fitScenario({ maxReceiveCount: 7 }, scenario).faults).toEqual([{ ...scenario.faults[0], receives: [1, 2, 3, 4, 5, 6, 7] }, scenario.faults[1]]);
  });
});
