/**
 * function-errors at `function.logLevel: "ERROR"`, end to end: the real function (Powertools at ERROR), the local
 * Lambda's application log-level filter at ERROR (the stack's logging_config, as Lambda applies it), the synthesized
 * metric filters and alarm on the cloud's clock. One invocation per record: each rejection is a Lambda error, and
 * only its line, written at ERROR at this level (functions/src/invocation-log.ts), lets the alarm subtract it. Before,
 * the line was WARN, never written: every rejection paged.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud, type OutcomeEvent } from "../../src/cloud";
import { waitFor, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const ALARM = "test-function-errors";
const refused = (orderId: string) => JSON.stringify({ tenantId: "t1", orderId, amount: 100, currency: "XXX" });

describe("Local alarms: function-errors at function.logLevel ERROR, one invocation per record", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud | undefined;
  const outcomes: OutcomeEvent[] = [];
  beforeAll(async () => {
    stack = synthStack({ batchInvocation: false, function: { logLevel: "ERROR" } });
    cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json") });
    cloud.subscribe((event) => {
      if (event.type === "record-outcome") outcomes.push(event);
    });
  }, 120_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("stays quiet for rejections alone: each a Lambda error, each subtracted by its ERROR line", async () => {
    const local = cloud!;
    // The scenario's invocations share one minute of the cloud's clock.
    await local.alarms.advance((60_000 - (Date.now() % 60_000)) / 1000);
    for (const body of [refused("o-1"), refused("o-2")]) {
      await local.clients.sqs.send(new SendMessageCommand({ QueueUrl: local.outputs.queue_url as string, MessageBody: body }));
    }
    await waitFor(() => outcomes.length >= 2, { timeoutMs: 60_000, message: "2 outcomes" });
    await local.drain();
    expect(outcomes.map((o) => o.reason)).toEqual(["rejected", "rejected"]);
    const at = Date.now();
    const sum = (namespace: string, metricName: string, dimensions: [string, string][]) =>
      local.alarms.store.statistic({ namespace, metricName, dimensions }, "Sum", at - (at % 60_000), 60);
    expect(sum("AWS/Lambda", "Errors", [["FunctionName", "test-charge"]])).toBe(2);
    await local.alarms.advance(60);
    expect(local.alarms.state(ALARM)).not.toBe("ALARM");
  }, 180_000);
});
