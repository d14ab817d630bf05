/**
 * Renames between deploys (issue 29, break 5): the model's second-layer rule, both ways, and the minimal scenario the
 * search found on the code before the fix (`npm run sim:search -- --runs 2000 --seed 29`, after 119 scenarios), which the
 * pipeline now passes: the renamed function answers the key from its record.
 */
import type { InvocationFact, SideEffectRun } from "../../src/facts/records";
import { checkScenario } from "../../src/fuzz/search";
import { secondLayerViolations } from "../../src/oracle/second-layer";
import { FaultKind, type Observation, type Scenario } from "../../src/scenario/shape";
import { simSettings } from "../../src/settings";

const DAY = 86_400_000;
const KEY = '["a","a"]';

function observed(invocations: readonly InvocationFact[], sideEffects: readonly SideEffectRun[]): Observation {
  return {
    messages: [],
    charges: [],
    handlerRuns: [],
    deliveries: [],
    executions: [],
    ledger: [],
    invocations,
    sideEffects,
    endedAt: 20 * DAY,
    trace: [],
    stats: { executions: 0, dynamoCalls: 0, invocations: 0, virtualMs: 0, timersFired: 0, transitions: [] },
  };
}
const answered: InvocationFact = { key: KEY, startedAt: 1_000, endedAt: 2_000, ok: true };
const firstRun: SideEffectRun = { key: KEY, message: 0, runStartedAt: 1_000, at: 1_100 };

describe("Model: the second layer answers every run of a key it answered, for the retention", () => {
  it("flags a side-effect run of a key after an invocation of it returned, within the retention", () => {
    const again: SideEffectRun = { key: KEY, message: 1, runStartedAt: 400_000, at: 400_100 };
    const found = secondLayerViolations(observed([answered, { ...answered, startedAt: 400_000, endedAt: 400_200 }], [firstRun, again]), 14 * DAY, 4 * DAY);
    expect(found).toEqual([{ message: 1, key: KEY, what: expect.stringMatching(/^the side effect ran again for a key the second layer had answered 398 s before/) }]);
  });

  it("allows it once the retention from the key's first run has passed (the record expired), or for another key", () => {
    const late: SideEffectRun = { key: KEY, message: 1, runStartedAt: 1_000 + 14 * DAY, at: 1_000 + 14 * DAY };
    const other: SideEffectRun = { key: '["b","b"]', message: 2, runStartedAt: 5_000, at: 5_100 };
    expect(secondLayerViolations(observed([answered], [firstRun, late, other]), 14 * DAY, 4 * DAY)).toEqual([]);
  });

  it("allows a run that started before any invocation of the key returned (no record was complete yet)", () => {
    const overlapping: SideEffectRun = { key: KEY, message: 1, runStartedAt: 1_500, at: 2_500 };
    expect(secondLayerViolations(observed([answered], [firstRun, overlapping]), 14 * DAY, 4 * DAY)).toEqual([]);
  });

  it("counts no answer from an invocation that failed (a crash, a timeout): nothing says a record completed", () => {
    const again: SideEffectRun = { key: KEY, message: 1, runStartedAt: 400_000, at: 400_100 };
    expect(secondLayerViolations(observed([{ ...answered, ok: false }], [firstRun, again]), 14 * DAY, 4 * DAY)).toEqual([]);
  });
});

describe("Simulation: a deploy renames the function between a charge the ledger lost and a resend", () => {
  it("the renamed function answers the resend from its record: the side effect runs once", async () => {
    // Arrange: the minimal scenario of the search (a producer's attribute it carried left out).
    const body = '{"orderId":"a","amount":10,"currency":"EUR","tenantId":"a"}';
    const scenario: Scenario = {
      seed: 0,
      pollers: 1,
      faults: [{ message: 0, kind: FaultKind.CompleteFail, receives: [1, 5] }],
      ops: [{ op: "send", body }, { op: "advance", ms: 400_000 }, { op: "rename" }, { op: "send", body }, { op: "release", message: 0 }],
    };

    // Act
    const obs = await checkScenario(simSettings(), scenario);

    // Assert
    expect(obs.trace.some((line) => line.includes("rename function → sim-charge-r1"))).toBe(true);
    expect(obs.sideEffects).toHaveLength(1);
    expect(obs.charges).toHaveLength(1);
    // The resend reached the renamed function (the ledger had lost the key): it was answered, not run.
    expect(obs.handlerRuns.filter((r) => r.message === 1).length).toBeGreaterThan(0);
  });
});
