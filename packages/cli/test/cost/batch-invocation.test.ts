/**
 * One invocation per batch in the cost model (packages/cli/src/cost/common-lines.ts): one Lambda request per batch that claims a
 * record, billed for its waves, the Powertools share split off in proportion, and one summary log line per batch
 * invocation. Worked out by hand from the default assumptions: 45 ms a record (16 of them Powertools'), 2 ms a further
 * record of a batch, 256 MB arm64; a 290 B summary line (+ 26 B event overhead) with 240 B per record on it, and one EMF
 * document of 250 B with 12 B of values per record.
 */
import { compare } from "../../src/cost/compare";
import type { CostLine } from "../../src/cost/line";
import { loadPriceBook } from "../../src/cost/prices";
import { DEFAULT_SCENARIO } from "../../src/cost/scenario";
import { A, CONFIG, MILLION } from "./fixtures";

const book = loadPriceBook();
const find = (lines: readonly CostLine[], service: string, item: string): CostLine => {
  const found = lines.find((l) => l.service === service && l.item.startsWith(item));
  if (!found) throw new Error(`no line ${service} / ${item}`);
  return found;
};

describe("Function: compare, with one invocation per batch", () => {
  // Arrange: new keys only, batch 10, no quarantine, no retry: 100,000 full batches.
  const scenario = { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, batchSize: 10 };
  const perRecord = compare(CONFIG, book, A, scenario).design;
  const batch = compare({ ...CONFIG, stateMachine: { ...CONFIG.stateMachine, batchInvocation: true } }, book, A, scenario).design;

  it("counts 0.1 Lambda requests a message (one per batch)", () => {
    expect(find(batch.lines, "Lambda", "payments-charge requests").quantity).toBeCloseTo(100_000, 6);
    expect(find(perRecord.lines, "Lambda", "payments-charge requests").quantity).toBeCloseTo(MILLION, 6);
    expect(find(batch.lines, "Lambda", "payments-charge requests").detail).toContain("63 ms billed");
  });

  it("bills each batch 45 + 9 × 2 = 63 ms, 16/45 of it Powertools'", () => {
    const gbSeconds = 100_000 * 0.25 * 0.063;
    expect(find(batch.lines, "Lambda", "payments-charge duration: Powertools").quantity).toBeCloseTo((gbSeconds * 16) / 45, 6);
    expect(find(batch.lines, "Lambda", "payments-charge duration: side effect").quantity).toBeCloseTo((gbSeconds * 29) / 45, 6);
  });

  it("logs one summary line a batch, with each record's entry on it, and one EMF document a batch", () => {
    expect(find(batch.lines, "CloudWatch Logs", "payments-charge logs").quantity).toBeCloseTo(100_000 * (290 + 26) + MILLION * 240, 6);
    expect(find(batch.lines, "CloudWatch Logs", "payments-charge logs").detail).toContain("1 summary line(s) of 316 B");
    expect(find(batch.lines, "CloudWatch Logs", "payments-charge fate metrics").quantity).toBeCloseTo(100_000 * 250 + MILLION * 12, 6);
    expect(find(perRecord.lines, "CloudWatch Logs", "payments-charge logs").quantity).toBeCloseTo(MILLION * (440 + 26), 6);
  });

  it("reaches the issue's figures at the default mix: at most $5.30 a million, the pipeline's share not above one invocation per record's", () => {
    // Arrange: 1 % retries, 0.1 % quarantined, batch 10 (the figures npm run cost prints).
    const scenario = { ...DEFAULT_SCENARIO, messages: MILLION, batchSize: 10 };
    const batched = compare({ ...CONFIG, stateMachine: { ...CONFIG.stateMachine, batchInvocation: true } }, book, A, scenario);
    const single = compare(CONFIG, book, A, scenario);

    // Assert
    expect(batched.design.totalUsd).toBeLessThanOrEqual(5.3);
    expect(batched.design.pipelineUsd).toBeLessThanOrEqual(single.design.pipelineUsd);
    // The Lambda guard runs one execution per message: its function's lines do not change with the stack's mode.
    expect(batched.baseline.totalUsd).toBeCloseTo(single.baseline.totalUsd, 9);
  });

  it("costs less in total, and the pipeline's own share is not above the per-record design's", () => {
    expect(batch.totalUsd).toBeLessThan(perRecord.totalUsd);
    expect(batch.pipelineUsd).toBeLessThanOrEqual(perRecord.pipelineUsd);
  });
});
