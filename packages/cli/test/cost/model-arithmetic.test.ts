import { BaselineWorkflow, PipesBilling } from "../../src/cost/assumptions";
import { compare } from "../../src/cost/compare";
import type { CostLine } from "../../src/cost/line";
import { loadPriceBook } from "../../src/cost/prices";
import { A, CONFIG, MILLION } from "./fixtures";

// Each expected value below is worked out by hand from the default assumptions and the prices file:
// body 512 B + 1024 B record overhead = 1536 B per record (1 chunk); items < 1 KB (1 WRU) and < 4 KB (1 RRU);
// new-key path 6 writes, duplicate path 1 write + 1 consistent read; function 256 MB arm64 45 ms (16 of them Powertools'),
// one log line of 440 B.
const book = loadPriceBook();
const GiB = 1024 ** 3;
const MONTH_SECONDS = 730 * 3600;
// The default retention (14 days): how long each key's items stay until TTL.
const RETENTION = 1209600;

function find(lines: readonly CostLine[], service: string, item: string): CostLine {
  const found = lines.find((l) => l.service === service && l.item.startsWith(item));
  if (!found) throw new Error(`no line ${service} / ${item} among ${lines.map((l) => `${l.service} / ${l.item}`).join(", ")}`);
  return found;
}

describe("Function: compare", () => {
  describe("20% duplicates, batch 10, no quarantine, no retry", () => {
    // Arrange
    const c = compare(CONFIG, book, A, { messages: MILLION, duplicateRatio: 0.2, quarantineRatio: 0, retryRatio: 0, batchSize: 10 });
    const d = c.design.lines;
    const b = c.baseline.lines;

    it("prices SQS: 1M sends, 100k receives and 100k batch deletes for this design; 1M of each for the guard", () => {
      expect(find(d, "SQS", "SendMessage (producer)").usd).toBeCloseTo(1e6 * 0.4e-6, 10); // $0.40
      expect(find(d, "SQS", "ReceiveMessage").usd).toBeCloseTo(1e5 * 0.4e-6, 10); // $0.04
      expect(find(d, "SQS", "DeleteMessageBatch").usd).toBeCloseTo(1e5 * 0.4e-6, 10);
      expect(find(d, "SQS", "SendMessage to the DLQ").usd).toBe(0);
      expect(find(b, "SQS", "ReceiveMessage").usd).toBeCloseTo(1e6 * 0.4e-6, 10);
      expect(find(b, "SQS", "DeleteMessage").usd).toBeCloseTo(1e6 * 0.4e-6, 10);
    });

    it("prices Pipes per record for both designs", () => {
      expect(find(d, "EventBridge Pipes", "requests").usd).toBeCloseTo(0.4, 10);
      expect(find(b, "EventBridge Pipes", "requests").usd).toBeCloseTo(0.4, 10);
    });

    it("prices Express requests per execution: 100k batches vs 1M messages", () => {
      expect(find(d, "Step Functions", "Express requests").usd).toBeCloseTo(0.1, 10);
      expect(find(b, "Step Functions", "Express requests").usd).toBeCloseTo(1.0, 10);
    });

    it("prices Express duration in 100 ms steps and one 64 MB chunk", () => {
      // This design: a batch lasts 10 ms + its slowest record. New key: Parse 2 + Validate 1 + Stamp 1 + Claim 12 +
      // Invoke (25 + 45) + Complete 12 + Processed 1 = 99 ms → 109 → 200 ms billed, unless all ten records are
      // duplicates (Parse 2 + 1 + 1 + Claim 12 + Inspect 12 + Decide 1 + 1 = 30 → 40 → 100 ms): probability 0.2^10.
      const designMs = 200 - 100 * 0.2 ** 10;
      expect(c.design.billedMsPerExecution).toBeCloseTo(designMs, 9);
      expect(find(d, "Step Functions", "Express duration").usd).toBeCloseTo(1e5 * (designMs / 1000) * (64 / 1024) * 0.00001667, 12);
      // Guard: new key 10 + guard (25 + 15) + 1 + invoke 70 + complete 12 + 1 = 134 → 200 ms;
      // duplicate 10 + 40 + 1 + 1 = 52 → 100 ms; 80/20 → 180 ms.
      expect(c.baseline.billedMsPerExecution).toBeCloseTo(180, 9);
      expect(find(b, "Step Functions", "Express duration").usd).toBeCloseTo(1e6 * 0.18 * 0.0625 * 0.00001667, 12);
    });

    it("prices DynamoDB writes and reads per table from the path counts", () => {
      // ledger: 800k new × (claim + complete) + 200k duplicates × failed claim = 1.8M WRU; 200k consistent inspects.
      expect(find(d, "DynamoDB", "ledger writes").usd).toBeCloseTo(1.8e6 * 0.625e-6, 10); // $1.125
      expect(find(d, "DynamoDB", "ledger reads").usd).toBeCloseTo(0.2e6 * 0.125e-6, 10); // $0.025
      expect(find(d, "DynamoDB", "idempotency writes").usd).toBeCloseTo(1.6e6 * 0.625e-6, 10); // $1.00
      expect(find(d, "DynamoDB", "effects writes").usd).toBeCloseTo(1.6e6 * 0.625e-6, 10);
      expect(find(b, "DynamoDB", "ledger writes").usd).toBeCloseTo(find(d, "DynamoDB", "ledger writes").usd, 12);
    });

    it("prices storage until TTL and point-in-time recovery", () => {
      const storage = (bytes: number) => ((0.8e6 * bytes) / GiB) * (RETENTION / MONTH_SECONDS);
      expect(find(d, "DynamoDB", "storage until TTL (ledger, idempotency)").usd).toBeCloseTo(storage(350 + 320 + 2 * 100) * 0.25, 10);
      expect(find(d, "DynamoDB", "storage until TTL (effects)").usd).toBeCloseTo(storage(280 + 250 + 2 * 100) * 0.25, 10);
      const pitr = ((0.8e6 * (350 + 100 + 320 + 100)) / GiB) * (RETENTION / MONTH_SECONDS); // ledger + idempotency only
      expect(find(d, "DynamoDB", "point-in-time").usd).toBeCloseTo(pitr * 0.2, 10);
    });

    it("prices the downstream Lambda for new keys only, and the guard for every message", () => {
      expect(find(d, "Lambda", "payments-charge requests").usd).toBeCloseTo(0.8e6 * 0.2e-6, 10); // $0.16
      // 9,000 GB-s in all: 16 ms of Powertools idempotency (the pipeline's), 29 ms of the side effect.
      expect(find(d, "Lambda", "payments-charge duration: Powertools").usd).toBeCloseTo(0.8e6 * 0.25 * 0.016 * 0.0000133334, 10);
      expect(find(d, "Lambda", "payments-charge duration: side effect").usd).toBeCloseTo(0.8e6 * 0.25 * 0.029 * 0.0000133334, 10);
      expect(find(b, "Lambda", "guard requests").usd).toBeCloseTo(1e6 * 0.2e-6, 10);
      expect(find(b, "Lambda", "guard duration").usd).toBeCloseTo(1e6 * 0.125 * 0.015 * 0.0000133334, 10); // 1,875 GB-s
    });

    it("prices log ingestion: function lines, ERROR events for lost claims, guard lines", () => {
      expect(find(d, "CloudWatch Logs", "payments-charge logs").usd).toBeCloseTo(((0.8e6 * (440 + 26)) / GiB) * 0.5, 10);
      // ERROR level logs one TaskFailed (the caught ConditionalCheckFailedException) per duplicate.
      expect(find(d, "CloudWatch Logs", "state machine logs").usd).toBeCloseTo(((0.2e6 * (650 + 26)) / GiB) * 0.5, 10);
      expect(find(b, "CloudWatch Logs", "state machine logs").usd).toBe(0);
      expect(find(b, "CloudWatch Logs", "guard logs").usd).toBeCloseTo(((1e6 * (450 + 26)) / GiB) * 0.5, 10);
    });

    it("prices X-Ray traces per sampled execution", () => {
      expect(find(d, "X-Ray", "traces").usd).toBeCloseTo(1e5 * 0.05 * 5e-6, 12); // $0.025
      expect(find(b, "X-Ray", "traces").usd).toBeCloseTo(1e6 * 0.05 * 5e-6, 12); // $0.25
    });

    it("adds the lines up to the totals and the savings", () => {
      const sum = (lines: readonly CostLine[]) => lines.reduce((s, l) => s + l.usd, 0);
      expect(c.design.totalUsd).toBeCloseTo(sum(d), 12);
      expect(c.baseline.totalUsd).toBeCloseTo(sum(b), 12);
      expect(c.savingsUsd).toBeCloseTo(c.baseline.totalUsd - c.design.totalUsd, 12);
      expect(c.savingsShare).toBeCloseTo(c.savingsUsd / c.baseline.totalUsd, 12);
      for (const l of [...d, ...b]) expect(l.usd).toBeCloseTo(l.quantity * l.unitPriceUsd, 12);
    });

    it("splits the total into the pipeline's own cost and the side effect, the same side effect in both designs", () => {
      // Side effect: EFFECT + CALL writes, their storage, the function's requests and its 29 ms of own work.
      const sideEffect =
        1.6e6 * 0.625e-6 +
        ((0.8e6 * (280 + 250 + 2 * 100)) / GiB) * (RETENTION / MONTH_SECONDS) * 0.25 +
        0.8e6 * 0.2e-6 +
        0.8e6 * 0.25 * 0.029 * 0.0000133334;
      expect(c.design.sideEffectUsd).toBeCloseTo(sideEffect, 10);
      expect(c.baseline.sideEffectUsd).toBeCloseTo(sideEffect, 10);
      expect(c.design.pipelineUsd).toBeCloseTo(c.design.totalUsd - sideEffect, 10);
      expect(c.baseline.pipelineUsd).toBeCloseTo(c.baseline.totalUsd - sideEffect, 10);
      const sideEffectItems = d.filter((l) => l.owner === "side effect").map((l) => l.item);
      expect(sideEffectItems).toEqual(["effects writes", "storage until TTL (effects)", "payments-charge requests", "payments-charge duration: side effect (arm64)"]);
    });
  });

  describe("quarantines and retries", () => {
    it("adds one DLQ send per quarantine and a delivery (not a delete) per retry", () => {
      const c = compare(CONFIG, book, A, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0.01, retryRatio: 0.5, batchSize: 10 });
      expect(find(c.design.lines, "SQS", "SendMessage to the DLQ").quantity).toBeCloseTo(10_000, 6);
      expect(c.design.deliveries).toBeCloseTo(1.5e6, 6);
      expect(find(c.design.lines, "Step Functions", "Express requests").quantity).toBeCloseTo(1.5e5, 6);
      // A batch is deleted unless all ten records are retries: one third of deliveries are retries.
      expect(find(c.design.lines, "SQS", "DeleteMessageBatch").quantity).toBeCloseTo(1.5e5 * (1 - (1 / 3) ** 10), 3);
      expect(find(c.baseline.lines, "SQS", "DeleteMessage").quantity).toBeCloseTo(1e6, 6);
      // Retried and quarantined deliveries each cost a failed claim and an inspect.
      expect(find(c.design.lines, "DynamoDB", "ledger reads").quantity).toBeCloseTo(0.51e6, 3);
    });
  });

  describe("options", () => {
    it("bills Pipes per 64 KB of batch when told to", () => {
      const c = compare(CONFIG, book, { ...A, pipesBilling: PipesBilling.Batch }, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, batchSize: 10 });
      expect(find(c.design.lines, "EventBridge Pipes", "requests").quantity).toBeCloseTo(1e5, 6); // 10 × 1536 B < 64 KB
    });

    it("bills 64 KB chunks for large messages", () => {
      const c = compare(CONFIG, book, { ...A, messageBodyBytes: 100 * 1024 }, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, batchSize: 10 });
      expect(find(c.design.lines, "SQS", "SendMessage (producer)").quantity).toBeCloseTo(2e6, 6); // 100 KB = 2 chunks
      expect(find(c.design.lines, "EventBridge Pipes", "requests").quantity).toBeCloseTo(2e6, 6); // 101 KB record = 2 chunks
      expect(find(c.design.lines, "SQS", "ReceiveMessage").quantity).toBeCloseTo(1e5 * 16, 6); // 10 × 101 KB = 1010 KB → 16 chunks
    });

    it("prices the guard as a Standard workflow per state transition", () => {
      const c = compare(CONFIG, book, { ...A, baseline: { ...A.baseline, workflow: BaselineWorkflow.Standard } }, { messages: MILLION, duplicateRatio: 0.2, quarantineRatio: 0, retryRatio: 0, batchSize: 10 });
      // new key: guard, choice, invoke, complete, pass = 5 transitions; duplicate: guard, choice, pass = 3.
      expect(find(c.baseline.lines, "Step Functions", "Standard state transitions").usd).toBeCloseTo((0.8e6 * 5 + 0.2e6 * 3) * 25e-6, 9); // $115
      expect(c.baseline.lines.some((l) => l.item.startsWith("Express"))).toBe(false);
    });

    it("logs every state event at ALL, and nothing from the function at WARN", () => {
      const config = { ...CONFIG, stateMachine: { ...CONFIG.stateMachine, logLevel: "ALL" as const }, function: { ...CONFIG.function, applicationLogLevel: "WARN" } };
      const c = compare(config, book, A, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, batchSize: 10 });
      // new key: Parallel 6 + Choice 2 + Pass 2 + 3 tasks × 5 + Pass 2 = 27 events + 2 Map iteration events, per record;
      // 6 execution-level events per batch of 10.
      const bytes = 1e6 * 29 * (350 + 26) + 1e5 * 6 * (350 + 26);
      expect(find(c.design.lines, "CloudWatch Logs", "state machine logs").usd).toBeCloseTo((bytes / GiB) * 0.5, 10);
      expect(find(c.design.lines, "CloudWatch Logs", "payments-charge logs").usd).toBe(0);
      // The fate metrics' own line: the EMF document, the service, the level and timestamp Lambda's filter keeps it by.
      const own = Buffer.byteLength('{"service":"payments-charge","level":"WARN","timestamp":"2026-12-05T21:21:09.587Z"}');
      expect(find(c.design.lines, "CloudWatch Logs", "payments-charge fate metrics (EMF line of its own").detail).toContain(` × ${A.functionMetricBytes + own + A.logEventOverheadBytes} B `);
    });
  });
});

describe("Function: compare, FIFO queues", () => {
  // Arrange: the same stream on FIFO queues ($0.50 per million requests instead of $0.40), batches of 2.
  const c = compare({ ...CONFIG, fifo: true }, book, A, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0.1, retryRatio: 0, batchSize: 2 });
  const d = c.design.lines;

  it("prices every SQS request of a FIFO stack at the FIFO rate: sends, receives, deletes, quarantines", () => {
    expect(find(d, "SQS", "SendMessage (producer)")).toMatchObject({ priceId: "sqs.fifo.request" });
    expect(find(d, "SQS", "SendMessage (producer)").usd).toBeCloseTo(1e6 * 0.5e-6, 10); // $0.50
    expect(find(d, "SQS", "ReceiveMessage").usd).toBeCloseTo(5e5 * 0.5e-6, 10); // 500k batches of 2
    expect(find(d, "SQS", "SendMessage to the DLQ").usd).toBeCloseTo(1e5 * 0.5e-6, 10);
    expect(find(compare(CONFIG, book, A, { messages: MILLION, duplicateRatio: 0, quarantineRatio: 0.1, retryRatio: 0, batchSize: 2 }).design.lines, "SQS", "SendMessage (producer)").priceId).toBe("sqs.request");
  });
});
