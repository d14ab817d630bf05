import { join } from "node:path";
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

describe("capacity plan with one invocation per batch (batchInvocation)", () => {
  it("learns the mode from the synthesized definition", () => {
    // Arrange
    const batch = synthStack();
    const perRecord = synthStack({ batchInvocation: false });
    try {
      // Act / Assert
      expect(readCapacitySettings(join(batch.stackDir, "cdk.tf.json")).batchInvocation).toBe(true);
      expect(readCapacitySettings(join(perRecord.stackDir, "cdk.tf.json"))).not.toHaveProperty("batchInvocation");
    } finally {
      batch.cleanup();
      perRecord.cleanup();
    }
  });

  it("spends one Lambda request per batch: 0.101 a message at 1 % retries, and Lambda's rate is no longer the first limit", () => {
    // Arrange: AWS-typical figures for batch 10, Map concurrency 10, the default mix (1 % retries, 0.1 % quarantined).
    const figures = defaultFigures(10, 10);
    const settings = { ...SETTINGS, visibilityTimeoutSeconds: 1140, executionTimeoutSeconds: 190 };

    // Act
    const perRecord = planCapacity(settings, figures, quotas, 5000);
    const batch = planCapacity({ ...settings, batchInvocation: true }, figures, quotas, 5000);

    // Assert
    expect(byId(perRecord, "lambda-rate").perRate).toBeCloseTo(0.999, 9);
    expect(perRecord.saturatesFirst.id).toBe("lambda-rate");
    expect(byId(batch, "lambda-rate").perRate).toBeCloseTo(0.101, 9);
    expect(byId(batch, "lambda-rate").perRate).toBeLessThanOrEqual(0.11);
    expect(batch.saturatesFirst.id).not.toMatch(/^lambda/);
    expect(batch.maxSustainableRate).toBeGreaterThan(perRecord.maxSustainableRate);
  });

  it("holds a batch's invocation in Lambda for the batch's duration (records at once up to the Map's concurrency)", () => {
    // Act: batch 10, round figures: 100 ms a batch invocation, one per 10 messages.
    const plan = planCapacity({ ...SETTINGS, batchInvocation: true }, ROUND, quotas, 1000);

    // Assert: 1,000 msg/s → 100 invocations/s × 0.1 s = 10 environments.
    expect(byId(plan, "lambda").demand).toBeCloseTo(10, 9);
    expect(byId(plan, "lambda").how).toContain("one per batch");
  });
});
