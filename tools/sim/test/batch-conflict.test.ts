/**
 * One invocation per batch meets a conflict the function finds (the `batch-conflict` focused space, tools/sim/src/fuzz/focus.ts):
 * key a is applied, but its function crashes after the side effect on every receive, so the workflow releases its
 * claim each time while Powertools keeps it COMPLETED; 300 s later another payload of key a comes in a batch with a new
 * key. The ledger lets it claim, the batch's answer says `conflict` for it, and the workflow must quarantine it
 * (payload-mismatch) at once. The mutant that drops Answered's conflict rule hands it back on every receive instead,
 * until SQS moves it to the DLQ without a reason: the default mix drew this too rarely (the mutant survived 40 runs of
 * it, the focused faults and 160 runs more), the focused space kills it at its first run.
 */
import { checkScenario } from "../src/fuzz/search";
import { mutantById, mutantSettingsOf } from "../src/mutants/mutate";
import { FaultKind, type Scenario } from "../src/scenario/shape";
import { settingsFor } from "../src/settings";

const body = (tenantId: string, amount: number) => JSON.stringify({ tenantId, orderId: "o", amount, currency: "EUR" });

const CONFLICT_IN_A_BATCH: Scenario = {
  seed: 0,
  pollers: 1,
  faults: [{ message: 0, kind: FaultKind.FnCrashAfter, receives: [1, 2, 3, 4, 5] }],
  ops: [
    { op: "send", body: body("a", 10) },
    // Past the claim's lease (190 s in batch mode), within the 1,140 s visibility timeout: no receive of the first overlaps.
    { op: "advance", ms: 300_000 },
    { op: "send", body: body("a", 20) },
    { op: "send", body: body("b", 10) },
  ],
};

describe("Simulation: a conflict inside a batch's answer", () => {
  it("is quarantined as payload-mismatch on its first receive", async () => {
    // Act
    const observed = await checkScenario(settingsFor({ batchInvocation: true }), CONFLICT_IN_A_BATCH);

    // Assert: no violation, its fate is the quarantine, and it took one receive.
    expect(observed.messages[1]?.fate).toBe("quarantined:payload-mismatch");
    expect(observed.deliveries.filter((d) => d.message === 1)).toHaveLength(1);
  });

  it("without Answered's conflict rule: handed back on every receive, its receives run out (the model says so)", async () => {
    // Arrange
    const settings = mutantSettingsOf(mutantById("BATCH ProcessBatch/Answered:choice-1:remove"))({ batchInvocation: true });

    // Act / Assert
    await expect(checkScenario(settings, CONFLICT_IN_A_BATCH)).rejects.toThrow(/fate retries-exhausted, expected quarantined:payload-mismatch/);
  });
});
