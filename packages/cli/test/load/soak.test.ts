import { buildSoakReport } from "../../src/load/soak-report";
import { runSoak } from "@effectively-once/local-cloud/harness";
import { SOAK_DEFAULTS } from "@effectively-once/local-cloud/harness";

describe("Function: runSoak", () => {
  it("keeps every guarantee over 150 messages with duplicates, invalid input, conflicts and harsh faults", async () => {
    // Act
    const result = await runSoak({ ...SOAK_DEFAULTS, messages: 150, invalidRatio: 0.03, conflictRatio: 0.02, rejectedRatio: 0.02, faultProfile: "harsh", seed: "soak-test", settleTimeoutSeconds: 60 });
    const report = buildSoakReport(result);

    // Assert: the invariants, and that the run really was under fire
    expect(result.verification.sent).toBe(150);
    expect(result.verification.lost).toEqual([]);
    expect(result.verification.doubleApplied).toEqual([]);
    expect(result.ledger.badTtl).toEqual([]);
    expect(result.fates).toMatchObject({ invalidMisfiled: [], rejectedMisfiled: [] });
    expect(result.verification.applied).toBeGreaterThan(90);
    expect(result.verification.quarantinedByReason["invalid-message"]).toBeGreaterThanOrEqual(4);
    expect(Object.values(report.faultsByKind).reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
    expect(report.ok).toBe(true);
  }, 60_000);
});
