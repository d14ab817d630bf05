import { DEFAULT_ASSUMPTIONS } from "../../tools/cost/assumptions";
import { compare } from "../../tools/cost/compare";
import { loadPriceBook } from "../../tools/cost/prices";
import { DEFAULT_SCENARIO } from "../../tools/cost/scenario";
import { CONFIG, MILLION } from "./fixtures";

// The budget the pipeline's own cost must stay within (issue 15): at batch 10 with no duplicates, at most $4.00 per
// million messages and at most 0.65 × the Lambda-guard design's own cost. The log assumption behind it is measured
// on the local cloud (test/cost/path-calls.test.ts), so a chattier function fails there or here.
const book = loadPriceBook();
const c = compare(CONFIG, book, DEFAULT_ASSUMPTIONS, { ...DEFAULT_SCENARIO, messages: MILLION, duplicateRatio: 0, batchSize: 10 });

describe("Budget: the pipeline's own cost (default stack, batch 10, 0% duplicates)", () => {
  // The fate metrics (issue 40) are observability the budget of issue 15 did not hold: they have a cap of their own,
  // and everything else keeps the $4.00.
  const fateMetrics = c.design.lines.filter((l) => l.item.includes("fate metrics")).reduce((sum, l) => sum + l.usd, 0);

  it("stays at or below $4.00 per million messages, the fate metrics aside", () => {
    expect(c.design.pipelineUsd - fateMetrics).toBeLessThanOrEqual(4.0);
  });

  it("keeps the fate metrics at or below $0.15 per million messages", () => {
    expect(fateMetrics).toBeGreaterThan(0);
    expect(fateMetrics).toBeLessThanOrEqual(0.15);
  });

  it("stays at or below 0.65 × the Lambda guard's own cost", () => {
    expect(c.design.pipelineUsd / c.baseline.pipelineUsd).toBeLessThanOrEqual(0.65);
  });

  it("keeps the function's log at one line per applied key", () => {
    const logs = c.design.lines.find((l) => l.item.startsWith("payments-charge logs"));
    expect(logs?.quantity).toBeCloseTo(c.design.lines.find((l) => l.item === "payments-charge requests")!.quantity * (DEFAULT_ASSUMPTIONS.functionLogLineBytes + DEFAULT_ASSUMPTIONS.logEventOverheadBytes), 6);
    expect(DEFAULT_ASSUMPTIONS.functionInfoLines).toBe(1);
  });
});
