import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies } from "@effectively-once/local-cloud/harness";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

// The fast tier's one end-to-end run (the full suite is `npm run test:slow`): a message and its resend published to
// SQS on the local cloud, through the pipe, the state machine and the function's bundle, judged from outside.
describe("End to end, smoke: one message and its resend", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  beforeAll(async () => {
    stack = synthStack();
    cloud = await startLocalCloud({ stackFile: `${stack.stackDir}/cdk.tf.json`, retryVisibilityTimeoutSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("applies the charge once and acknowledges the resend (fields in another order) as a duplicate", async () => {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [{ tenantId: "smoke", orderId: "o-1", amount: 1250, currency: "EUR" }]);
    await cloud.drain({ timeoutMs: 20_000 });
    sent.push(...(await publishBodies(target, [{ currency: "EUR", amount: 1250, orderId: "o-1", tenantId: "smoke" }])));
    await cloud.drain({ timeoutMs: 20_000 });

    const { effects, dlq, verification } = await observe(target, sent);
    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect(dlq).toEqual([]);
    const [effect] = [...effects.values()];
    expect(effects.size).toBe(1);
    expect(effect.effects).toHaveLength(1);
    expect(effect.calls.map((c) => c.outcome)).toEqual(["applied"]);
    expect(cloud.stats().outcomes).toMatchObject({ processed: 1, duplicate: 1 });
  }, 60_000);
});
