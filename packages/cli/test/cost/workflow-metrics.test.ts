import { DESIGN_PATHS, BASELINE_PATHS, Path } from "../../src/cost/paths";
import { billedExpressGb, billedExpressMs, expectedBilledMs, pathLatencyMs, pathLogEvents } from "../../src/cost/workflow-metrics";
import { A } from "./fixtures";

describe("Module: workflow-metrics", () => {
  describe("Function: billedExpressMs / billedExpressGb", () => {
    it("rounds duration up to 100 ms and memory up to 64 MB", () => {
      expect(billedExpressMs(1)).toBe(100);
      expect(billedExpressMs(100)).toBe(100);
      expect(billedExpressMs(101)).toBe(200);
      expect(billedExpressGb(1)).toBe(64 / 1024);
      expect(billedExpressGb(65)).toBe(128 / 1024);
    });
  });

  describe("Function: expectedBilledMs", () => {
    it("is the slowest record's billed time when every record takes the same path", () => {
      expect(expectedBilledMs([{ share: 1, latencyMs: 95 }], 10, 10, 10)).toBe(200);
    });

    it("weights each level by the chance that it is the slowest in the batch", () => {
      // Half fast (40 → 100 ms), half slow (150 → 200 ms) with start 10: batch of 2 is all fast with p = 1/4.
      expect(expectedBilledMs([{ share: 1, latencyMs: 30 }, { share: 1, latencyMs: 140 }], 2, 2, 10)).toBeCloseTo(0.25 * 100 + 0.75 * 200, 10);
    });

    it("runs records in waves when the Map concurrency is below the batch size", () => {
      expect(expectedBilledMs([{ share: 1, latencyMs: 60 }], 10, 5, 0)).toBe(200); // two waves of 60 ms
      expect(expectedBilledMs([{ share: 1, latencyMs: 60 }], 10, 10, 0)).toBe(100);
    });
  });

  describe("Function: pathLatencyMs / pathLogEvents", () => {
    it("adds the steps of a path", () => {
      expect(pathLatencyMs(DESIGN_PATHS[Path.NewKey], A)).toBe(2 + 1 + 1 + 12 + 25 + 45 + 12 + 1);
      expect(pathLatencyMs(BASELINE_PATHS[Path.NewKey], A)).toBe(25 + 15 + 1 + 25 + 45 + 12 + 1);
    });

    it("logs only the caught TaskFailed of a lost claim at ERROR, and nothing at FATAL or OFF", () => {
      expect(pathLogEvents(DESIGN_PATHS[Path.NewKey], "ERROR", true)).toEqual({ normal: 0, error: 0 });
      expect(pathLogEvents(DESIGN_PATHS[Path.Duplicate], "ERROR", true)).toEqual({ normal: 0, error: 1 });
      expect(pathLogEvents(DESIGN_PATHS[Path.Duplicate], "FATAL", true)).toEqual({ normal: 0, error: 0 });
      expect(pathLogEvents(DESIGN_PATHS[Path.Duplicate], "OFF", true)).toEqual({ normal: 0, error: 0 });
      expect(pathLogEvents(BASELINE_PATHS[Path.Duplicate], "ERROR", false)).toEqual({ normal: 0, error: 0 });
    });

    it("counts every event at ALL, Map iteration events included", () => {
      // Parallel 6, Choice 2, Pass 2, Claim (caught) 4, Inspect 5, Choice 2, Pass 2 = 23, one of them TaskFailed; +2 iteration.
      expect(pathLogEvents(DESIGN_PATHS[Path.Duplicate], "ALL", true)).toEqual({ normal: 24, error: 1 });
    });
  });
});
