/**
 * One invocation per batch in the simulation (tools/sim/src/function/batch.ts): the batch's failure points, each drawn on
 * one record of a batch of three new keys, through the whole simulated pipeline (the rendered batch definition, the
 * real handler, Powertools). The oracle checks every run; here, each record is charged once and acknowledged.
 */
import { checkScenario } from "../../src/fuzz/search";
import { BATCH_MUTATE_SETTINGS } from "../../src/mutants/batch";
import { Fate, FaultKind, type Scenario } from "../../src/scenario/shape";
import { simSettings } from "../../src/settings";

const body = (orderId: string) => JSON.stringify({ tenantId: "t", orderId, amount: 10, currency: "EUR" });
const settings = simSettings(BATCH_MUTATE_SETTINGS);
const batchOf = (fault: Scenario["faults"][number]): Scenario => ({ seed: 0, pollers: 1, faults: [fault], ops: ["o1", "o2", "o3"].map((o) => ({ op: "send", body: body(o) })) });

describe("Simulation: the failure points of one invocation per batch", () => {
  it("a crash after the second record's side effect: the first is recognised alone, the second retried, the third applied alone", async () => {
    // Act
    const obs = await checkScenario(settings, batchOf({ message: 1, kind: FaultKind.FnCrashAfter, receives: [1] }));

    // Assert
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked, Fate.Acked]);
    expect(obs.charges).toHaveLength(3);
    expect(obs.batchReruns).toEqual([0]);
  });

  it("a timeout at the third record with the first two done: they are recognised alone, the third applied later", async () => {
    // Act
    const obs = await checkScenario(settings, batchOf({ message: 2, kind: FaultKind.FnTimeout, receives: [1] }));

    // Assert
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked, Fate.Acked]);
    expect(obs.charges).toHaveLength(3);
    expect([...(obs.batchReruns ?? [])].sort()).toEqual([0, 1]);
  });

  it("an answer that omits the second record: the others complete on their answers, the second is invoked alone", async () => {
    // Act
    const obs = await checkScenario(settings, batchOf({ message: 1, kind: FaultKind.FnCrashBefore, receives: [1] }));

    // Assert
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked, Fate.Acked]);
    expect(obs.charges).toHaveLength(3);
    expect(obs.batchReruns).toEqual([]);
    // One run each: the omitted record ran only on a later receive, the others only in the batch.
    expect(obs.handlerRuns.map((r) => r.message).sort()).toEqual([0, 1, 2]);
  });
});

describe("Simulation: a record of a batch that fails on its own", () => {
  it("a throttled record answers retry alone: released and retried, the others completed on their answers", async () => {
    // Act
    const obs = await checkScenario(settings, batchOf({ message: 0, kind: FaultKind.FnThrottle, receives: [1] }));

    // Assert: the throttled record was retried (no run on its first receive), then applied; the others ran once.
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked, Fate.Acked]);
    expect(obs.charges).toHaveLength(3);
    expect(obs.handlerRuns.map((r) => r.message).sort()).toEqual([0, 1, 2]);
    expect(obs.deliveries.filter((d) => d.message === 0 && d.retried)).toHaveLength(1);
  });
});
