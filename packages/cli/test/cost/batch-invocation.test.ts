/**
 * One invocation per batch in the cost model (packages/cli/src/cost/common-lines.ts): one Lambda request per batch that claims a
 * record, billed for its waves, the Powertools share split off in proportion, and one log line per record as before.
 * Worked out by hand from the default assumptions: 45 ms a record (16 of them Powertools'), 2 ms a further record of a
 * batch, 256 MB arm64, a 440 B line (+ 26 B event overhead) per record.
 */
import { compare } from "../../src/cost/compare";
import type { CostLine } from "../../src/cost/line";
import { loadPriceBook } from "../../src/cost/prices";
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

  it("logs one line per record as before, so the log line costs the same", () => {
    expect(find(batch.lines, "CloudWatch Logs", "payments-charge logs").quantity).toBeCloseTo(find(perRecord.lines, "CloudWatch Logs", "payments-charge logs").quantity, 6);
    expect(find(batch.lines, "CloudWatch Logs", "payments-charge logs").detail).toContain("10 record lines a batch");
  });

  it("costs less in total, and the pipeline's own share is not above the per-record design's", () => {
    expect(batch.totalUsd).toBeLessThan(perRecord.totalUsd);
    expect(batch.pipelineUsd).toBeLessThanOrEqual(perRecord.pipelineUsd);
  });
});
