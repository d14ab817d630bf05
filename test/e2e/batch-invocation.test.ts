/**
 * One invocation per batch (`batchInvocation: true`) end to end on the local cloud: the synthesized stack, the
 * function's bundle, the interpreter, the pipe. Counts the Lambda invocations the local cloud made per message, and
 * crashes a batch invocation after one record's side effect: every record is applied once, none reaches the DLQ.
 */
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies } from "@effectively-once/local-cloud/harness";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { chargeWrite } from "./support/fault-rules";
import { synthesizedNames } from "./support/local-target";
import { TEST_WINDOWS } from "./support/test-windows";

const CRASH_TENANT = "batch-crash";

describe("End to end, one invocation per batch", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  const invocations = () => Object.values(cloud.stats().functions).reduce((sum, f) => sum + f.invocations, 0);
  const target = () => ({ sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs });

  beforeAll(async () => {
    // The function timeout is the end-to-end suites' own: a batch of 10 new keys ran 4.7 s on average on a loaded
    // 2-core machine (load 22), so a 3 s timeout cut batch invocations short and their records fell back to one
    // invocation each (8 timeouts, 47 invocations for 28 messages). A crashed invocation leaves its records' Powertools
    // entries in progress for the rest of its timeout: retries 2 s past that timeout find them expired (a deployed
    // stack's visibility timeout is minutes), so the records a crash left behind are recognised, not retried until
    // their receives run out.
    stack = synthStack({ batchInvocation: true, function: TEST_WINDOWS.function });
    const names = synthesizedNames(`${stack.stackDir}/cdk.tf.json`);
    // The second record of the crash scenario crashes its environment right after its side effect, once.
    const crashKey = JSON.stringify([CRASH_TENANT, "o2"]);
    cloud = await startLocalCloud({
      stackFile: `${stack.stackDir}/cdk.tf.json`,
      retryVisibilityTimeoutSeconds: TEST_WINDOWS.function.timeoutSeconds + 2,
      faults: { seed: "e2e-batch", rules: [{ service: "lambda", id: "crash-after-charge", function: names.functionName, action: "crash", when: "after", sideEffect: chargeWrite(names, crashKey), times: 1 }] },
    });
  }, 120_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("applies 100 new keys once each with at most 0.11 Lambda invocations per message", async () => {
    // Arrange
    const bodies = Array.from({ length: 100 }, (_, i) => ({ tenantId: "batch-count", orderId: `o-${i}`, amount: 100 + i, currency: "EUR" }));
    const before = invocations();

    // Act
    const sent = await publishBodies(target(), bodies);
    await cloud.drain({ timeoutMs: 60_000 });

    // Assert
    const { effects, dlq, verification } = await observe(target(), sent);
    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect(dlq).toEqual([]);
    expect([...effects.keys()].filter((key) => key.includes("batch-count"))).toHaveLength(100);
    const perMessage = (invocations() - before) / sent.length;
    expect(perMessage).toBeLessThanOrEqual(0.11);
  }, 120_000);

  it("recognises the records a crashed batch invocation applied: each record applied once, none in the DLQ", async () => {
    // Arrange
    const bodies = ["o1", "o2", "o3", "o4"].map((orderId) => ({ tenantId: CRASH_TENANT, orderId, amount: 7, currency: "EUR" }));

    // Act
    const sent = await publishBodies(target(), bodies);
    await cloud.drain({ timeoutMs: 60_000 });

    // Assert
    const { effects, dlq, verification } = await observe(target(), sent);
    expect(cloud.stats().faults).toMatchObject({ byRule: { "crash-after-charge": 1 } });
    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect(dlq).toEqual([]);
    const ours = [...effects.entries()].filter(([key]) => key.includes(CRASH_TENANT));
    expect(ours).toHaveLength(4);
    for (const [, effect] of ours) expect(effect.effects).toHaveLength(1);
  }, 120_000);
});
