import { emptyTotals, type FuzzReport } from "../../src/fuzz/search";
import { mergeReports, splitRuns } from "../../src/fuzz/jobs";

function part(seed: number, runs: number, failed = false): FuzzReport {
  const totals = { ...emptyTotals(), runs, messages: 10 * runs, fates: { acked: runs }, transitions: new Set([`A${seed}→B`]) };
  const failure = failed ? { scenario: { seed: 0, pollers: 1, faults: [], ops: [] }, violations: [{ what: "x" }], classes: [], path: "3:1", numRuns: 4, shrinks: 2 } : undefined;
  return { seed, definition: {}, shape: { messages: 20 }, totals, elapsedMs: 1, skipped: {}, ...(failure ? { failure } : {}) };
}

describe("Function: splitRuns", () => {
  it("shares the runs out, the first processes taking the remainder, never a process with none", () => {
    expect(splitRuns(10, 3)).toEqual([4, 3, 3]);
    expect(splitRuns(2, 4)).toEqual([1, 1]);
    expect(splitRuns(5, 1)).toEqual([5]);
  });
});

describe("Function: mergeReports", () => {
  it("adds the totals up and keeps the wall time of the whole", () => {
    const merged = mergeReports([part(7, 3), part(8, 2)], 60_000);
    expect(merged.totals).toMatchObject({ runs: 5, messages: 50, fates: { acked: 5 } });
    expect([...merged.totals.transitions].sort()).toEqual(["A7→B", "A8→B"]);
    expect(merged).toMatchObject({ seed: 7, jobs: 2, elapsedMs: 60_000, shape: { messages: 20 } });
    expect(merged.failure).toBeUndefined();
  });

  it("reports a failure with the seed of the process that found it, so the replay draws the same scenario", () => {
    const merged = mergeReports([part(7, 3), part(8, 2, true)], 1_000);
    expect(merged.seed).toBe(8);
    expect(merged.failure?.path).toBe("3:1");
  });
});
