/**
 * function-errors offline, end to end: the real function in the local cloud, its log lines through the synthesized
 * metric filter, Lambda's Errors as the local Lambda counts them, the synthesized alarm on the cloud's clock.
 * Batch mode (the default): a minute where a batch invocation fails beside batches that answer rejections pages (the
 * rejections' lines, once subtracted from Errors, hid the failure); a minute of batch rejections alone does not; a
 * minute where a batch answers one record's transient failure (`retry`, no Lambda error) pages by that record's line.
 * Per-record mode: rejections alone, each a Lambda error, do not page either.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud, type OutcomeEvent } from "../../src/cloud";
import type { FaultPlanSpec } from "../../src/faults";
import { waitFor, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const ALARM = "test-function-errors";
const refused = (orderId: string) => JSON.stringify({ tenantId: "t1", orderId, amount: 100, currency: "XXX" });
const payment = (orderId: string) => JSON.stringify({ tenantId: "t1", orderId, amount: 100, currency: "EUR" });

/** A cloud on `stack`, and a way to send bodies and wait for their outcomes. */
async function cloudOn(stack: SynthesizedStack, faults?: FaultPlanSpec) {
  const cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json"), ...(faults ? { faults } : {}) });
  const outcomes: OutcomeEvent[] = [];
  cloud.subscribe((event) => {
    if (event.type === "record-outcome") outcomes.push(event);
  });
  /** Sends `bodies` one after the other and waits until each has its outcome; the cloud is idle after it. */
  const settle = async (...bodies: string[]) => {
    const expected = outcomes.length + bodies.length;
    for (const body of bodies) await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: body }));
    await waitFor(() => outcomes.length >= expected, { timeoutMs: 60_000, message: `${bodies.length} outcomes` });
    await cloud.drain();
  };
  return { cloud, outcomes, settle };
}

/** The Sum of the function's `metricName` in the minute that holds `at`, as the local Lambda published it. */
function lambdaSum(cloud: LocalCloud, metricName: string, at: number): number | undefined {
  return cloud.alarms.store.statistic({ namespace: "AWS/Lambda", metricName, dimensions: [["FunctionName", "test-charge"]] }, "Sum", at - (at % 60_000), 60);
}

/** Moves the cloud's clock to the start of the next minute (the cloud idle), so a scenario's invocations share one. */
async function atMinuteStart(cloud: LocalCloud): Promise<void> {
  await cloud.alarms.advance((60_000 - (Date.now() % 60_000)) / 1000);
}

describe("Local alarms: function-errors with one invocation per batch", () => {
  let stack: SynthesizedStack;
  let run: Awaited<ReturnType<typeof cloudOn>> | undefined;
  beforeAll(async () => {
    stack = synthStack();
    // The function's first invocation fails before its handler runs: a batch invocation's failure, as a crash. And the
    // effect of order o-9 cannot be written (HTTP 500 on every attempt): that record's own transient failure.
    run = await cloudOn(stack, {
      seed: "function-errors",
      rules: [
        { service: "lambda", function: "test-charge", action: "fail", when: "before", times: 1 },
        { service: "dynamodb", action: "error", match: { operation: "PutItem", item: { pk: '["t1","o-9"]#charge', sk: "EFFECT" } } },
      ],
    });
  }, 120_000);
  afterAll(async () => {
    await run?.cloud.stop();
    stack?.cleanup();
  });

  it("pages for a failed batch invocation in a minute whose other batches rejected records", async () => {
    const { cloud, outcomes, settle } = run!;
    await atMinuteStart(cloud);
    // The batch fails, its record is then invoked alone and applied; then a batch answers two refusals.
    await settle(payment("o-1"));
    await settle(refused("o-2"), refused("o-3"));
    expect(outcomes.map((o) => [o.outcome, o.reason])).toEqual([["processed", undefined], ["quarantined", "rejected"], ["quarantined", "rejected"]]);
    // One Lambda error (the failed batch invocation); the refusals were answers, no errors.
    expect(lambdaSum(cloud, "Errors", Date.now())).toBe(1);
    await cloud.alarms.advance(60);
    expect(cloud.alarms.state(ALARM)).toBe("ALARM");
  }, 180_000);

  it("is quiet again in a minute of batch rejections alone", async () => {
    const { cloud, settle } = run!;
    await atMinuteStart(cloud);
    await settle(refused("o-4"), refused("o-5"));
    await cloud.alarms.advance(60);
    expect(cloud.alarms.state(ALARM)).toBe("OK");
  }, 180_000);

  it("pages for one record's transient failure that its batch answered: no Lambda error, the record's ERROR line", async () => {
    const { cloud, outcomes, settle } = run!;
    await atMinuteStart(cloud);
    await settle(refused("o-7"), payment("o-8"));
    // Its own batch: its outcome is a retry, so the message stays in flight (no drain: it comes back after the
    // visibility timeout, longer than the minute the alarm evaluates).
    const before = outcomes.length;
    await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: payment("o-9") }));
    await waitFor(() => outcomes.length > before, { timeoutMs: 60_000, message: "the outcome of o-9" });
    expect(outcomes.slice(-3).map((o) => o.outcome).sort()).toEqual(["processed", "quarantined", "retry"]);
    expect(outcomes.at(-1)).toMatchObject({ outcome: "retry" });
    expect(lambdaSum(cloud, "Errors", Date.now())).toBe(0);
    await cloud.alarms.advance(60);
    expect(cloud.alarms.state(ALARM)).toBe("ALARM");
  }, 180_000);
});

describe("Local alarms: function-errors with one invocation per record", () => {
  let stack: SynthesizedStack;
  let run: Awaited<ReturnType<typeof cloudOn>> | undefined;
  beforeAll(async () => {
    stack = synthStack({ batchInvocation: false });
    run = await cloudOn(stack);
  }, 120_000);
  afterAll(async () => {
    await run?.cloud.stop();
    stack?.cleanup();
  });

  it("stays quiet for rejections alone: each is a Lambda error, and its line says the invocation threw", async () => {
    const { cloud, outcomes, settle } = run!;
    await atMinuteStart(cloud);
    await settle(refused("o-1"), refused("o-2"));
    expect(outcomes.map((o) => o.reason)).toEqual(["rejected", "rejected"]);
    expect(lambdaSum(cloud, "Errors", Date.now())).toBe(2);
    await cloud.alarms.advance(60);
    expect(cloud.alarms.state(ALARM)).not.toBe("ALARM");
  }, 180_000);
});
