/**
 * The pipeline's fates as metrics, offline: the function's EMF lines (Powertools Metrics) and the workflow's
 * PutLogEvents of EMF documents (statemachines/src/fate-count.ts) both reach the local metric store, as CloudWatch
 * extracts EMF from a function's log lines and from PutLogEvents alike. One new payment, a second copy of it, and an
 * invalid body: Applied 1, RecognisedDuplicate 1, Quarantined{invalid-message} 1, each counted once.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { FATE_METRICS_NAMESPACE, FateMetric } from "@effectively-once/contract";
import { startLocalCloud, type CloudEvent, type LocalCloud } from "../../src/cloud";
import { waitFor, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { join } from "node:path";

describe("Local metrics: the fates of a scenario, counted by reason", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  const outcomes: CloudEvent[] = [];
  beforeAll(async () => {
    stack = synthStack();
    cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json") });
    cloud.subscribe((event) => event.type === "record-outcome" && outcomes.push(event));
  }, 120_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  const send = (body: string) => cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: body }));

  /** Every value of the fate metrics in the store, summed per `metric` or `metric/reason`; each carries the stack's `service`. */
  function fateSums(): Record<string, number> {
    const sums: Record<string, number> = {};
    const store = cloud.alarms.store;
    for (const metric of store.metrics().filter((m) => m.namespace === FATE_METRICS_NAMESPACE)) {
      const dims = new Map(metric.dimensions);
      expect(dims.get("service")).toBe("test");
      const name = dims.has("reason") ? `${metric.metricName}/${dims.get("reason")}` : metric.metricName;
      sums[name] = (sums[name] ?? 0) + store.values(metric, 0, Date.now() / 1000 + 3600).reduce((a, b) => a + b, 0);
    }
    return sums;
  }

  it("counts Applied from the function, RecognisedDuplicate and Quarantined by reason from the workflow", async () => {
    const payment = JSON.stringify({ tenantId: "t1", orderId: "o-fates", amount: 100, currency: "EUR" });
    await send(payment);
    await waitFor(() => outcomes.length === 1, { timeoutMs: 30_000, message: "the new payment's outcome" });
    await send(payment);
    await send("{not json");
    await waitFor(() => outcomes.length === 3, { timeoutMs: 30_000, message: "the copy's and the invalid body's outcomes" });
    await cloud.drain();

    expect(outcomes.map((o) => (o as { outcome: string }).outcome).sort()).toEqual(["duplicate", "processed", "quarantined"]);
    expect(fateSums()).toEqual({
      [FateMetric.Applied]: 1,
      [FateMetric.SendToEffect]: expect.any(Number),
      [FateMetric.RecognisedDuplicate]: 1,
      [`${FateMetric.Quarantined}/invalid-message`]: 1,
    });
  }, 120_000);
});
