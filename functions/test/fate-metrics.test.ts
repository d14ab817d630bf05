import { Metrics } from "@aws-lambda-powertools/metrics";
import { FATE_METRICS_NAMESPACE } from "@effectively-once/contract";
import { createFateMetrics } from "../src/metrics";
import { captureOutput } from "./support/capture-output";
import { FUNCTION_NAME, depositEvent, redelivery } from "./support/deposit";
import { depositHandlerFixture } from "./support/deposit-fixture";
import { lambdaContext } from "./support/lambda-context";

type Line = Record<string, unknown>;
const parse = (lines: string[]): Line[] => lines.map((line) => JSON.parse(line) as Line);

/** The metrics a line declares, each with its root value, checked against the embedded metric format's rules. */
function emfMetrics(line: Line): Map<string, unknown> {
  const directive = (line._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!;
  expect(directive.Namespace).toBe(FATE_METRICS_NAMESPACE);
  // Every dimension a directive names must be a string at the root: here only the service, never a key or message id.
  expect(directive.Dimensions).toEqual([["service"]]);
  expect(typeof line.service).toBe("string");
  return new Map(directive.Metrics.map((m) => [m.Name, line[m.Name]]));
}

describe("Function: fate metrics (Powertools Metrics, embedded metric format)", () => {
  describe("at INFO: on the invocation's one line", () => {
    const fx = depositHandlerFixture({ idempotency: "fates-idempotency", effects: "fates-effects" }, { POWERTOOLS_LOG_LEVEL: "INFO" });

    it("counts an applied record with its send-to-effect time, on the one line the invocation writes", async () => {
      // Arrange
      const event = { ...depositEvent(), firstSentAt: Date.now() - 60_000 };

      // Act
      const { error, lines } = await captureOutput(() => fx.handler(event, lambdaContext(FUNCTION_NAME)));

      // Assert
      expect(error).toBeUndefined();
      const logs = parse(lines);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ outcome: "applied", messageId: event.messageId, service: "deposits" });
      const metrics = emfMetrics(logs[0]!);
      expect(metrics.get("Applied")).toBe(1);
      expect(metrics.get("SendToEffectMs")).toBeGreaterThanOrEqual(60_000);
      expect(metrics.has("Duplicate")).toBe(false);
    });

    it("counts a duplicate the second layer answered, and no applied", async () => {
      // Arrange
      const event = depositEvent();
      await captureOutput(() => fx.handler(event, lambdaContext(FUNCTION_NAME)));

      // Act
      const { lines } = await captureOutput(() => fx.handler(redelivery(event), lambdaContext(FUNCTION_NAME)));

      // Assert
      const logs = parse(lines);
      expect(logs).toHaveLength(1);
      const metrics = emfMetrics(logs[0]!);
      expect([...metrics]).toEqual([["Duplicate", 1]]);
    });

    it("counts per record in a batch: one value per applied and duplicate record, all on the batch's summary line", async () => {
      // Arrange: two new records, one the second layer answers, one refused.
      const seen = depositEvent();
      await captureOutput(() => fx.handler(seen, lambdaContext(FUNCTION_NAME)));
      const records = [depositEvent(), redelivery(seen), depositEvent(), depositEvent({ payload: { accountId: "acc-1", ref: "r-13", amount: 13 } })];

      // Act
      const { error, lines } = await captureOutput(() => fx.handler({ records }, lambdaContext(FUNCTION_NAME)));

      // Assert: the summary line carries the one EMF document; the refused record's own line carries none.
      expect(error).toBeUndefined();
      const logs = parse(lines);
      const withMetrics = logs.filter((line) => line._aws);
      expect(withMetrics).toEqual([expect.objectContaining({ message: "invocation batch" })]);
      const metrics = emfMetrics(withMetrics[0]!);
      expect(metrics.get("Applied")).toEqual([1, 1]);
      expect(metrics.get("Duplicate")).toBe(1);
    });

    it("counts nothing for a refused record: the workflow decides its quarantine", async () => {
      // Act
      const { error, lines } = await captureOutput(() => fx.handler(depositEvent({ payload: { accountId: "acc-1", ref: "r-13", amount: 13 } }), lambdaContext(FUNCTION_NAME)));

      // Assert
      expect(error).toMatchObject({ name: "PipelineRejected" });
      expect(parse(lines)).toEqual([expect.not.objectContaining({ _aws: expect.anything() })]);
    });
  });

  describe("above INFO: a line of its own", () => {
    const fx = depositHandlerFixture({ idempotency: "fates-warn-idempotency", effects: "fates-warn-effects" }, { POWERTOOLS_LOG_LEVEL: "WARN" });
    it("writes the line at the function's level: Lambda's log-level filter keeps it (without a level it counts as INFO)", async () => {
      // Act
      const { lines } = await captureOutput(() => fx.handler(depositEvent(), lambdaContext(FUNCTION_NAME)));

      // Assert: level and timestamp sit beside the document's root members, which stay as they were.
      const logs = parse(lines);
      expect(logs).toEqual([expect.objectContaining({ level: "WARN", service: "deposits", Applied: 1 })]);
      expect(Object.keys(logs[0]!).sort()).toEqual(["Applied", "_aws", "level", "service", "timestamp"]);
      // RFC 3339, as Powertools Logger writes it: a line without a valid timestamp Lambda also counts as INFO.
      expect(logs[0]!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it("publishes a batch's counts as one line of their own, one value per record", async () => {
      // Act
      const { lines } = await captureOutput(() => fx.handler({ records: [depositEvent(), depositEvent(), depositEvent()] }, lambdaContext(FUNCTION_NAME)));

      // Assert
      const logs = parse(lines);
      expect(logs).toHaveLength(1);
      expect(emfMetrics(logs[0]!).get("Applied")).toEqual([1, 1, 1]);
    });

    it("still publishes the applied count when the logger writes no INFO line", async () => {
      // Act
      const { lines } = await captureOutput(() => fx.handler(depositEvent(), lambdaContext(FUNCTION_NAME)));

      // Assert
      const logs = parse(lines);
      expect(logs).toHaveLength(1);
      expect(logs[0]).not.toHaveProperty("outcome");
      expect(emfMetrics(logs[0]!).get("Applied")).toBe(1);
    });
  });

  describe("at ERROR: a line of its own, at ERROR", () => {
    const fx = depositHandlerFixture({ idempotency: "fates-error-idempotency", effects: "fates-error-effects" }, { POWERTOOLS_LOG_LEVEL: "ERROR" });

    it("writes a batch's counts at ERROR, the level Lambda's log-level filter then keeps", async () => {
      // Act
      const { lines } = await captureOutput(() => fx.handler({ records: [depositEvent(), depositEvent()] }, lambdaContext(FUNCTION_NAME)));

      // Assert
      expect(parse(lines)).toEqual([expect.objectContaining({ level: "ERROR", service: "deposits", Applied: [1, 1] })]);
    });
  });

  describe("SILENT (tests, the simulation): nothing", () => {
    const fx = depositHandlerFixture({ idempotency: "fates-silent-idempotency", effects: "fates-silent-effects" });

    it("writes no line at all", async () => {
      // Act
      const { error, lines } = await captureOutput(() => fx.handler(depositEvent(), lambdaContext(FUNCTION_NAME)));

      // Assert
      expect(error).toBeUndefined();
      expect(lines).toEqual([]);
    });
  });
});

describe("Function: createFateMetrics", () => {
  describe("Method: flush", () => {
    it("counts per record, whatever the number of records one invocation carries", () => {
      // Arrange
      const fates = createFateMetrics({ serviceName: "s", metrics: new Metrics({ namespace: FATE_METRICS_NAMESPACE, serviceName: "s" }), now: () => 10_000 });
      fates.applied({ firstSentAt: 9_000 });
      fates.applied({ firstSentAt: 4_000 });
      fates.applied({});
      fates.duplicate();
      const lines: Line[] = [];

      // Act
      fates.flush((fields) => lines.push(fields));
      fates.flush((fields) => lines.push(fields));

      // Assert: one document; CloudWatch sums the list of values of a metric. No `level`: at INFO the line has its own.
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ Applied: [1, 1, 1], Duplicate: 1, SendToEffectMs: [1_000, 6_000] });
      expect(Object.keys(lines[0]!).sort()).toEqual(["Applied", "Duplicate", "SendToEffectMs", "_aws"]);
    });
  });
});
