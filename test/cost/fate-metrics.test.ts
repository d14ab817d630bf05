import { Metrics } from "@aws-lambda-powertools/metrics";
import { FATE_METRICS_NAMESPACE } from "@effectively-once/contract";
import { createFateMetrics } from "@effectively-once/functions";
import { DEFAULT_ASSUMPTIONS } from "../../tools/cost/assumptions";
import { compare } from "../../tools/cost/compare";
import { fixedMonthlyCosts } from "../../tools/cost/fixed-costs";
import { loadPriceBook } from "../../tools/cost/prices";
import { DEFAULT_SCENARIO } from "../../tools/cost/scenario";
import { CONFIG, MILLION } from "./fixtures";

const book = loadPriceBook();

/** Bytes `fields` add to a JSON log line that has other keys: their JSON without the braces, plus one comma. */
function addedBytes(fields: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(fields), "utf8") - 2 + 1;
}

describe("Cost: fate metrics", () => {
  it("prices no fewer bytes per invocation than the function's EMF fields take (an applied record, a day-old send)", () => {
    // Arrange: what the function counts for one applied record, with a seven-digit latency and today's timestamp.
    const fates = createFateMetrics({ serviceName: "payments", metrics: new Metrics({ namespace: FATE_METRICS_NAMESPACE, serviceName: "payments" }), now: () => Date.now() });
    fates.applied({ firstSentAt: Date.now() - 86_400_000 });
    let fields: Record<string, unknown> = {};

    // Act
    fates.flush((f) => (fields = f));

    // Assert
    expect(addedBytes(fields)).toBeLessThanOrEqual(DEFAULT_ASSUMPTIONS.functionMetricBytes);
  });

  it("puts the function's fate metrics in both designs' line items (the same function runs in both) and their custom metrics in the fixed costs", () => {
    // Act
    const c = compare(CONFIG, book, DEFAULT_ASSUMPTIONS, { ...DEFAULT_SCENARIO, messages: MILLION, duplicateRatio: 0, batchSize: 10 });
    const fixed = fixedMonthlyCosts(CONFIG, book, DEFAULT_ASSUMPTIONS);

    // Assert
    const metricLine = (lines: typeof c.design.lines) => lines.find((l) => l.item.includes("fate metrics"));
    expect(metricLine(c.design.lines)?.usd).toBeGreaterThan(0);
    expect(metricLine(c.baseline.lines)?.usd).toBeCloseTo(metricLine(c.design.lines)!.usd, 9);
    expect(fixed.find((f) => f.item.startsWith("CloudWatch custom metrics"))?.usdPerMonth).toBeCloseTo(3 * 0.3, 9);
  });
});
