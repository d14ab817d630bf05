import { Metrics } from "@aws-lambda-powertools/metrics";
import jsonata from "jsonata";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { FATE_METRICS_NAMESPACE } from "@effectively-once/contract";
import { createFateMetrics } from "@effectively-once/functions";
import { DEFAULT_ASSUMPTIONS } from "../../src/cost/assumptions";
import { compare } from "../../src/cost/compare";
import { fixedMonthlyCosts } from "../../src/cost/fixed-costs";
import { loadPriceBook } from "../../src/cost/prices";
import { DEFAULT_SCENARIO } from "../../src/cost/scenario";
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
    // The function's 3, the workflow's RecognisedDuplicate and Retried, and Quarantined once per DLQ reason (5).
    expect(fixed.find((f) => f.item.startsWith("CloudWatch custom metrics"))?.usdPerMonth).toBeCloseTo(10 * 0.3, 9);
  });

  it("prices no fewer bytes per batch than the workflow's PutLogEvents carries for a batch with a duplicate, a retry and a quarantine", async () => {
    // Arrange: the Task's LogEvents expression as deployed (the default stack's service name), over one batch's outcomes.
    const definition = renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, fateMetrics: { logGroupName: "/aws/vendedlogs/states/payments-workflow", logStreamName: "fate-metrics", service: "payments" } }) as { States: Record<string, { Arguments: { LogEvents: string } }> };
    const expression = /^\{%(.*)%\}$/s.exec(definition.States.PutFateMetrics.Arguments.LogEvents)![1];
    const outcomes = [
      { messageId: "m1", outcome: "duplicate", followers: [] },
      { messageId: "m2", outcome: "retry", detail: "downstream failed: Error", followers: [] },
      { messageId: "m3", outcome: "quarantined", reason: "payload-mismatch", detail: "…", key: "[\"t\",\"o\"]", followers: [] },
      { messageId: "m4", outcome: "processed", followers: [] },
    ];

    // Act
    const events = (await jsonata(expression).evaluate({}, { outcomes, followerFates: [] })) as { Timestamp: number; Message: string }[];

    // Assert: two events (by service; by reason), each with CloudWatch Logs' per-event overhead past the first one the model counts.
    expect(events).toHaveLength(2);
    const bytes = events.reduce((sum, e) => sum + Buffer.byteLength(e.Message, "utf8"), 0) + (events.length - 1) * DEFAULT_ASSUMPTIONS.logEventOverheadBytes;
    expect(bytes).toBeLessThanOrEqual(DEFAULT_ASSUMPTIONS.workflowFateEventBytes);
  });
});
