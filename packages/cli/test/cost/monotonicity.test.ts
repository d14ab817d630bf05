import { PipesBilling } from "../../src/cost/assumptions";
import { compare, grid } from "../../src/cost/compare";
import type { CostLine } from "../../src/cost/line";
import { loadPriceBook } from "../../src/cost/prices";
import { A, CONFIG, MILLION } from "./fixtures";

const book = loadPriceBook();
const base = { messages: MILLION, quarantineRatio: 0.001, retryRatio: 0.01 };
const usdOf = (lines: readonly CostLine[], pick: (l: CostLine) => boolean) => lines.filter(pick).reduce((s, l) => s + l.usd, 0);
const downstream = (l: CostLine) => (l.service === "Lambda" && !l.item.startsWith("guard")) || l.service === "DynamoDB";
const ratios = [0, 0.1, 0.2, 0.3, 0.5, 0.8];
const batches = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

function strictlyDecreasing(values: readonly number[]): void {
  for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]);
}

describe("Monotonicity of the cost model", () => {
  it("more duplicates cost less downstream (DynamoDB + the function) and less in total, in both designs", () => {
    const runs = ratios.map((duplicateRatio) => compare(CONFIG, book, A, { ...base, duplicateRatio, batchSize: 10 }));
    strictlyDecreasing(runs.map((c) => usdOf(c.design.lines, downstream)));
    strictlyDecreasing(runs.map((c) => usdOf(c.baseline.lines, downstream)));
    strictlyDecreasing(runs.map((c) => c.design.totalUsd));
    strictlyDecreasing(runs.map((c) => c.baseline.totalUsd));
  });

  it("larger batches cost less per message in Step Functions requests and SQS receives; Pipes too when billed per batch", () => {
    const perBatch = { ...A, pipesBilling: PipesBilling.Batch };
    const runs = batches.map((batchSize) => compare(CONFIG, book, perBatch, { ...base, duplicateRatio: 0.2, batchSize }));
    const line = (c: (typeof runs)[number], item: string) => c.design.lines.find((l) => l.item.startsWith(item))!.usd;
    strictlyDecreasing(runs.map((c) => line(c, "Express requests")));
    strictlyDecreasing(runs.map((c) => line(c, "ReceiveMessage")));
    strictlyDecreasing(runs.map((c) => line(c, "requests (batch)")));
    strictlyDecreasing(runs.map((c) => c.design.totalUsd));
  });

  it("bills Pipes the same per message at any batch size when each record is a request", () => {
    const runs = batches.map((batchSize) => compare(CONFIG, book, A, { ...base, duplicateRatio: 0.2, batchSize }));
    const pipes = runs.map((c) => c.design.lines.find((l) => l.service === "EventBridge Pipes")!.usd);
    expect(new Set(pipes.map((v) => v.toFixed(12))).size).toBe(1);
  });

  it("keeps the guard design flat across batch sizes, and this design never dearer than it", () => {
    const points = grid(CONFIG, book, A, { ...base, duplicateRatio: 0, batchSize: 10 }, [0, 0.2, 0.5], batches);
    for (const ratio of [0, 0.2, 0.5]) {
      const series = points.filter((p) => p.duplicateRatio === ratio);
      expect(new Set(series.map((p) => p.baselineUsd.toFixed(12))).size).toBe(1);
      for (const p of series) expect(p.designUsd).toBeLessThan(p.baselineUsd);
    }
  });

  it("saves more dollars with larger batches, and a larger share with more duplicates", () => {
    const run = (duplicateRatio: number, batchSize: number) => compare(CONFIG, book, A, { ...base, duplicateRatio, batchSize });
    strictlyDecreasing(batches.map((b) => -run(0.2, b).savingsUsd));
    // Duplicates lower both bills by the same DynamoDB and Lambda amounts, so the saving is a growing share of a smaller bill.
    strictlyDecreasing(ratios.map((r) => -run(r, 10).savingsShare));
  });
});
