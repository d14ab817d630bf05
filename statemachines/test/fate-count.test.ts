/**
 * The fates the workflow decides without the function, counted per record by the caught `putLogEvents` after the Maps
 * (statemachines/src/fate-count.ts): recognised duplicates, quarantines by reason, retries; none for a batch of new keys; a failed
 * call leaves the batch's answer as it was. The documents are read as the local cloud reads EMF.
 */
import { emfDatapoints, type LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { FATE_METRICS_NAMESPACE, FateMetric } from "@effectively-once/contract";
import { sqsRecord as record, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

const TARGET = { logGroupName: "/aws/vendedlogs/states/orders-workflow", logStreamName: "fate-metrics", service: "orders" };

describe("pipeline.asl.json: the workflow's fate metrics", () => {
  const lambda: LambdaInvoker = async (req) => {
    const event = JSON.parse(req.Payload);
    if (event.payload.orderId.startsWith("flaky")) return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "downstream 503" }) };
    return { StatusCode: 200, Payload: JSON.stringify({ ok: true }) };
  };
  let pipeline: PipelineMachine;
  beforeAll(async () => {
    pipeline = await startPipelineMachine(lambda, { lambdaRetries: 0, fateMetrics: TARGET });
  });
  afterAll(() => pipeline.stop());
  beforeEach(() => {
    pipeline.logCalls.length = 0;
    pipeline.failLogs = false;
  });

  const body = (orderId: string, amount = 10) => JSON.stringify({ tenantId: "fates", orderId, amount, currency: "EUR" });
  /** Every datapoint of every call, as `metric[/reason] → sum`. */
  const counts = (machine: PipelineMachine = pipeline) => {
    const sums = new Map<string, number>();
    for (const call of machine.logCalls) {
      expect(call).toMatchObject({ logGroupName: TARGET.logGroupName, logStreamName: TARGET.logStreamName });
      for (const event of call.logEvents) {
        for (const p of emfDatapoints(event.message)) {
          expect(p.namespace).toBe(FATE_METRICS_NAMESPACE);
          const dims = new Map(p.dimensions);
          expect(dims.get("service")).toBe("orders");
          const name = dims.has("reason") ? `${p.metricName}/${dims.get("reason")}` : p.metricName;
          sums.set(name, (sums.get(name) ?? 0) + p.value);
        }
      }
    }
    return Object.fromEntries(sums);
  };

  it("makes no call for a batch of new keys only (the function counts those)", async () => {
    const run = await pipeline.machine.execute([record("n1", body("o1")), record("n2", body("o2"))]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(pipeline.logCalls).toHaveLength(0);
  });

  it("counts each record the workflow decided: duplicates, quarantines by reason, retries, followers included", async () => {
    const run = await pipeline.machine.execute([
      record("d1", body("o1")), // the ledger holds o1 completed with this payload: a recognised duplicate
      record("d2", body("o1")), // same body as d1 in this batch: its follower, a duplicate too
      record("m1", body("o2", 99)), // o2 applied with another payload: payload-mismatch
      record("bad1", "{nope"), // invalid-message, and its follower below
      record("bad2", "{nope"),
      record("f1", body("flaky-1")), // the function fails: retried
      record("f1b", body("flaky-1")), // its follower: retried with it
      record("n3", body("o3")), // new: the function's to count
      record("n3b", body("o3")), // the follower of a processed leader: a recognised duplicate
    ]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [{ itemIdentifier: "f1" }, { itemIdentifier: "f1b" }] });
    expect(pipeline.logCalls).toHaveLength(1);
    expect(counts()).toEqual({
      [FateMetric.RecognisedDuplicate]: 3,
      [FateMetric.Retried]: 2,
      [`${FateMetric.Quarantined}/invalid-message`]: 2,
      [`${FateMetric.Quarantined}/payload-mismatch`]: 1,
    });
  });

  it("keeps the batch's answer when the call fails (no retry of the batch, no failed execution)", async () => {
    pipeline.failLogs = true;
    const run = await pipeline.machine.execute([record("f2", body("flaky-2")), record("bad3", "{nope")]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [{ itemIdentifier: "f2" }] });
    expect(pipeline.logCalls).toHaveLength(0);
  });

  describe("FIFO mode", () => {
    let fifo: PipelineMachine;
    beforeAll(async () => {
      fifo = await startPipelineMachine(lambda, { lambdaRetries: 0, fifo: { maxReceiveCount: 5 }, fateMetrics: TARGET });
    });
    afterAll(() => fifo.stop());
    const grouped = (messageId: string, bodyText: string, receiveCount = 1) =>
      record(messageId, bodyText, { attributes: { ApproximateReceiveCount: String(receiveCount), MessageGroupId: "g1", SentTimestamp: "1767225600000" } });

    it("counts the records held behind a retried one as retried, and a last receive's failure as retries-exhausted", async () => {
      const run = await fifo.machine.execute([grouped("f1", body("flaky-fifo")), grouped("h1", body("o-held")), grouped("x1", body("flaky-last"), 5)]);
      expect(run.status).toBe("SUCCEEDED");
      expect(run.output).toEqual({ batchItemFailures: [{ itemIdentifier: "f1" }, { itemIdentifier: "h1" }, { itemIdentifier: "x1" }] });
      expect(counts(fifo)).toEqual({ [FateMetric.Retried]: 3 });
      fifo.logCalls.length = 0;
      const last = await fifo.machine.execute([grouped("x2", body("flaky-last"), 5)]);
      expect(last.output).toEqual({ batchItemFailures: [] });
      expect(counts(fifo)).toEqual({ [`${FateMetric.Quarantined}/retries-exhausted`]: 1 });
    });
  });
});
