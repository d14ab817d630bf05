import { DEFAULT_ASSUMPTIONS } from "../../src/cost/assumptions";
import { compare } from "../../src/cost/compare";
import { Owner } from "../../src/cost/line";
import { loadPriceBook } from "../../src/cost/prices";
import { DEFAULT_SCENARIO } from "../../src/cost/scenario";
import { CONFIG, MILLION } from "./fixtures";

// The budget the pipeline's own cost must stay within (issue 15, then issue 40's fate metrics): at batch 10 with no
// duplicates, at most $4.00 + $0.15 per million messages and at most 0.65 × the Lambda-guard design's own cost. The log assumption behind it is measured
// on the local cloud (packages/cli/test/cost/path-calls.test.ts), so a chattier function fails there or here.
const book = loadPriceBook();
const c = compare(CONFIG, book, DEFAULT_ASSUMPTIONS, { ...DEFAULT_SCENARIO, messages: MILLION, duplicateRatio: 0, batchSize: 10 });

describe("Budget: the pipeline's own cost (default stack, batch 10, 0% duplicates)", () => {
  // Every fate metric (the function's EMF fields and the workflow's PutLogEvents, issue 40) is part of the pipeline's
  // own cost: both budgets below are held on the total with them in it, never beside it.
  const fateLines = c.design.lines.filter((l) => l.item.includes("fate metrics"));
  const fateMetrics = fateLines.reduce((sum, l) => sum + l.usd, 0);

  it("counts every fate metric in the pipeline's own cost: the function's and the workflow's lines, owned by the pipeline", () => {
    expect(fateLines.map((l) => l.item)).toEqual(["payments-charge fate metrics (EMF on its line)", "workflow fate metrics (EMF by PutLogEvents)", "workflow fate metrics (the PutLogEvents Task's Express time)"]);
    for (const l of fateLines) expect(l).toMatchObject({ owner: Owner.Pipeline, usd: expect.any(Number) });
    expect(fateLines.every((l) => l.usd > 0)).toBe(true);
    expect(c.design.pipelineUsd).toBeCloseTo(c.design.lines.filter((l) => l.owner === Owner.Pipeline).reduce((sum, l) => sum + l.usd, 0), 9);
  });

  it("stays at or below issue 15's $4.00 plus the fate metrics' own $0.15 cap, per million messages, all in one total", () => {
    expect(fateMetrics).toBeLessThanOrEqual(0.15);
    expect(c.design.pipelineUsd).toBeLessThanOrEqual(4.0 + 0.15);
  });

  it("stays at or below 0.65 × the Lambda guard's own cost, the fate metrics in it", () => {
    expect(c.design.pipelineUsd / c.baseline.pipelineUsd).toBeLessThanOrEqual(0.65);
  });

  it("keeps the function's log at one line per applied key", () => {
    const logs = c.design.lines.find((l) => l.item.startsWith("payments-charge logs"));
    expect(logs?.quantity).toBeCloseTo(c.design.lines.find((l) => l.item === "payments-charge requests")!.quantity * (DEFAULT_ASSUMPTIONS.functionLogLineBytes + DEFAULT_ASSUMPTIONS.logEventOverheadBytes), 6);
    expect(DEFAULT_ASSUMPTIONS.functionInfoLines).toBe(1);
  });
});
