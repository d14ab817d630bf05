import { WIDE_ALLOWANCES } from "../../src/oracle/allowances-wide";
import { oracleConfig } from "../../src/fuzz/search";
import { misclassificationMutants } from "../../src/mutants/misclassification";
import { violations } from "../../src/oracle/model";
import { runScenario } from "../../src/run";
import { FaultKind, type Fault, type Op, type Scenario } from "../../src/scenario/shape";
import { simSettings, type SimSettings } from "../../src/settings";
import { PER_RECORD_MUTATE_SETTINGS } from "../../src/mutants/batch";
import { renderPipelineDefinition } from "@effectively-once/statemachines";

/**
 * The misclassification mutants (mutants/misclassification.ts), each on one scenario that reaches its mistake:
 * the model before issue 22 (WIDE_ALLOWANCES: any fault on the key excused the fate) lets it live, the named
 * allowances kill it, and the unmutated pipeline keeps every promise on the same scenario.
 */
const pay = (amount: number) => JSON.stringify({ tenantId: "t", orderId: "o", amount, currency: "EUR" });
const send = (body: string): Op => ({ op: "send", body });
const once = (kind: FaultKind): Fault => ({ message: 0, kind, receives: [1] });
const one = (fault: Fault): Scenario => ({ seed: 3, pollers: 1, faults: [fault], ops: [send(pay(10)), { op: "advance", ms: 1000 }] });

const CASES: [string, Scenario, string][] = [
  ["ProcessBatch/Ledger:errors-as:payload-mismatch", one(once(FaultKind.LedgerFail)), "other-payload-applied"],
  ["ProcessBatch/Ledger:errors-as:rejected", one(once(FaultKind.LedgerFail)), "downstream-refuses"],
  ["ProcessBatch/Invoke:timeout-as:rejected", one(once(FaultKind.FnTimeout)), "downstream-refuses"],
  ["ProcessBatch/Invoke:crash-as:rejected", one(once(FaultKind.FnCrashBefore)), "downstream-refuses"],
  ["ProcessBatch/Invoke:throttle-as:rejected", one(once(FaultKind.FnThrottle)), "downstream-refuses"],
  ["ProcessBatch/Invoke:any-failure-as:payload-mismatch", one(once(FaultKind.FnCrashBefore)), "other-payload-applied"],
  [
    // Two bodies of one key and payload in one batch: one meets the other's live claim (a fault on the key, so
    // the wide model excused the conflict it reads there).
    "ProcessBatch/Decide:live-claim-as:payload-mismatch",
    { seed: 3, pollers: 1, faults: [once(FaultKind.VisibilityExpiry)], ops: [send(pay(10)), send(JSON.stringify({ orderId: "o", tenantId: "t", amount: 10, currency: "EUR" })), { op: "advance", ms: 1000 }] },
    "other-payload-applied",
  ],
  [
    // #0 crashes once, then is applied; #1, another payload of its key an hour later, is a conflict the mutant
    // hands back until its receives run out. The stall (nothing in flight) switches the per-delivery rule off,
    // so the fate rules alone speak.
    "ProcessBatch/Decide:conflict-as:retry",
    { seed: 3, pollers: 1, faults: [once(FaultKind.FnCrashBefore)], ops: [{ op: "stall", ms: 1000 }, send(pay(10)), { op: "advance", ms: 3_600_000 }, send(pay(11))] },
    "receives-lost",
  ],
];

const baseline = simSettings(PER_RECORD_MUTATE_SETTINGS);
const settingsOf = (id: string): SimSettings => {
  const mutant = misclassificationMutants().find((m) => m.id === id);
  if (!mutant) throw new Error(`no mutant ${id}`);
  return simSettings(PER_RECORD_MUTATE_SETTINGS, (p) => mutant.apply(renderPipelineDefinition(p)));
};

describe("The narrowed model kills what the wide one let live", () => {
  it("has a case for every misclassification mutant", () => {
    expect(CASES.map(([id]) => id).sort()).toEqual(misclassificationMutants().map((m) => m.id).sort());
  });

  it.each(CASES)("%s", async (id, scenario, rule) => {
    const clean = await runScenario(baseline, scenario);
    expect(violations(scenario, clean, oracleConfig(baseline))).toEqual([]);
    const settings = settingsOf(id);
    const obs = await runScenario(settings, scenario);
    expect(violations(scenario, obs, oracleConfig(settings, WIDE_ALLOWANCES))).toEqual([]);
    const found = violations(scenario, obs, oracleConfig(settings));
    expect(found).toEqual(expect.arrayContaining([expect.objectContaining({ what: expect.stringContaining(`none holds: ${rule}`) })]));
  }, 60_000);
});
