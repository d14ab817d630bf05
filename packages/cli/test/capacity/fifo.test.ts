import { join } from "node:path";
import { readStackFile } from "../../src/cost/stack-config";
import { defaultFigures } from "../../src/capacity/figures";
import { planCapacity } from "../../src/capacity/plan";
import { resolveQuotas } from "../../src/capacity/quotas";
import { readCapacitySettings } from "../../src/capacity/settings";
import { synthStack } from "@effectively-once/testing/stack";
import { ROUND, SETTINGS } from "./fixtures";

const quotas = resolveQuotas();
const byId = (plan: ReturnType<typeof planCapacity>, id: string) => {
  const part = plan.parts.find((p) => p.id === id);
  if (!part) throw new Error(`no part ${id}`);
  return part;
};

describe("capacity plan of a FIFO stack", () => {
  it("reads a FIFO stack's queue mode and plans with FIFO's quotas (300 calls/s per action, 120,000 in flight)", () => {
    const fifo = synthStack({ fifo: true });
    const ht = synthStack({ fifo: true, highThroughputFifo: true });
    try {
      const settings = readCapacitySettings(join(fifo.stackDir, "cdk.tf.json"));
      expect(settings.fifo).toEqual({ highThroughput: false });
      expect(readCapacitySettings(join(ht.stackDir, "cdk.tf.json")).fifo).toEqual({ highThroughput: true });
      // Serial within a group: the model's batch is batchSize records one after another (Map concurrency 1).
      const config = readStackFile(join(fifo.stackDir, "cdk.tf.json"));
      const serial = defaultFigures(config.pipe.batchSize, config.stateMachine.maxConcurrency);
      const parallel = defaultFigures(config.pipe.batchSize, config.pipe.batchSize);
      expect(serial.executionMsPerBatch).toBeGreaterThan(parallel.executionMsPerBatch);
    } finally {
      fifo.cleanup();
      ht.cleanup();
    }
  });

  const fifo = { ...SETTINGS, fifo: { highThroughput: false } };

  it("SendMessage, ReceiveMessage and DeleteMessageBatch each against 300 calls/s: sends bound a FIFO queue at 300 msg/s", () => {
    // Batch 10, no retries: 1,000 msg/s → 1,000 sends, 100 receives and 100 deletes per second.
    const plan = planCapacity(fifo, ROUND, quotas, 1000);
    expect(byId(plan, "sqs-fifo-send").demand).toBeCloseTo(1000, 9);
    expect(byId(plan, "sqs-fifo-receive").demand).toBeCloseTo(100, 9);
    expect(byId(plan, "sqs-fifo-delete").demand).toBeCloseTo(100, 9);
    expect(byId(plan, "sqs-fifo-send").limit).toBe(300);
    expect(plan.saturatesFirst.id).toBe("sqs-fifo-send");
    expect(plan.maxSustainableRate).toBe(300);
    const remedy = plan.remedies.find((r) => r.part.id === "sqs-fifo-send");
    expect(remedy?.text).toMatch(/highThroughputFifo: true/);
    expect(byId(plan, "sqs").quota.id).toBe("sqs.fifoInFlight");
    expect(byId(plan, "sqs").limit).toBe(120_000);
  });

  it("high-throughput mode: 70,000 calls/s per action (us-east-1), overridable for other regions", () => {
    const plan = planCapacity({ ...SETTINGS, fifo: { highThroughput: true } }, ROUND, quotas, 1000);
    expect(byId(plan, "sqs-fifo-send").limit).toBe(70_000);
    expect(plan.saturatesFirst.id).not.toMatch(/^sqs-fifo/);
    const frankfurt = planCapacity({ ...SETTINGS, fifo: { highThroughput: true } }, ROUND, resolveQuotas(undefined, ["sqs.fifoHighThroughputApiRate=19000"]), 1000);
    expect(byId(frankfurt, "sqs-fifo-send").limit).toBe(19_000);
  });

  it("a record to retry holds the rest of its group: in flight counts the batch for a visibility timeout", () => {
    const mix = { ...ROUND.mix, retryRatio: 0.01 };
    const standard = planCapacity(SETTINGS, { ...ROUND, mix }, quotas, 100);
    const plan = planCapacity(fifo, { ...ROUND, mix }, quotas, 100);
    // 100 msg/s × (1.01 × 250 ms + 0.01 × 10 records × 540 s) = 25.25 + 540.
    expect(byId(plan, "sqs").demand).toBeCloseTo(100 * (1.01 * 0.25 + 0.01 * 10 * 540), 6);
    expect(byId(standard, "sqs").demand).toBeCloseTo(100 * (1.01 * 0.25 + 0.01 * 540), 6);
    expect(standard.parts.some((p) => p.id.startsWith("sqs-fifo"))).toBe(false);
  });
});
