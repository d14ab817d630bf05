/**
 * A rollback to the previous release in the simulation (tools/sim/src/function/deploys.ts), drawn as a rename is: the
 * deployed function then honours only its own second-layer records. `pipeline-ops` must count only those as a key's
 * memory (packages/ops/src/function-ids.ts); the mutant `Ops/Witnesses:first-deploy-ids` counts the first deploy's,
 * as ops did when it read the stack's outputs, and `dlq redrive` then moves a copy the rolled-back function runs again.
 * The history is the one the search shrank (`--focus ledger-loss`, seed 20261201, killed at run 34).
 */
import { checkScenario } from "../src/fuzz/search";
import { mutantById, mutantSettingsOf } from "../src/mutants/mutate";
import { FaultKind, type Scenario } from "../src/scenario/shape";
import { settingsFor } from "../src/settings";

const HOUR = 3_600_000;
const body = (tenantId: string, amount: number) => JSON.stringify({ tenantId, orderId: "o", amount, currency: "EUR" });

/** Day 0 applied (its Complete fails: the ledger loses the key); day 1 a conflict and a batch-mate that hangs; an outage; a rollback; a redrive. */
const ROLLED_BACK: Scenario = {
  seed: 0,
  pollers: 1,
  faults: [
    { message: 0, kind: FaultKind.CompleteFail, receives: [1] },
    { message: 1, kind: FaultKind.FnCrashAfter, receives: [1, 2, 3, 4, 5] },
    { message: 2, kind: FaultKind.FnHang, receives: [1, 2, 3, 4, 5] },
  ],
  ops: [
    { op: "send", body: body("a", 10) },
    { op: "jump", ms: 24 * HOUR },
    { op: "send", body: body("a", 20) },
    { op: "send", body: body("b", 10) },
    { op: "jump", ms: 48 * HOUR },
    { op: "outage", ms: 42 * HOUR },
    { op: "rollback" },
    { op: "jump", ms: 5 * HOUR },
    { op: "redrive" },
  ],
};

describe("Simulation: a rollback to the previous release", () => {
  it("ops counting the first deploy's records: the redriven copy runs the side effect again", async () => {
    const settings = mutantSettingsOf(mutantById("first-deploy-ids"))({});
    await expect(checkScenario(settings, ROLLED_BACK)).rejects.toThrow(/the side effect ran again|charged again/);
  });

  it("ops counting what the deployed function honours: the copy stays in the DLQ and nothing runs twice", async () => {
    const observed = await checkScenario(settingsFor({}), ROLLED_BACK);
    expect(observed.rollbacks).toHaveLength(1);
    expect(observed.trace.some((line) => line.includes("rollback function"))).toBe(true);
  });
});
