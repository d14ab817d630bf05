/**
 * On call, offline: the synthesized alarms evaluated by the local cloud on its own clock. The same scenario runs on
 * this release's alarms and on a48d984's (a48d984-alarms.ts): a payment the downstream refuses (currency XXX, a
 * PermanentError) is quarantined `rejected`, then the DLQ sits idle for a day.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { startLocalCloud, type CloudEvent, type LocalCloud } from "../../src/cloud";
import { waitFor, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { withA48d984Alarms } from "./a48d984-alarms";

const DAY = 24 * 3600;

/**
 * Starts the cloud on `json` (written beside the synthesized stack, whose assets it names), quarantines one refused
 * payment, and lets two minutes of alarm evaluations pass.
 */
async function quarantineOne(stackDir: string, name: string, json: object): Promise<{ cloud: LocalCloud; dir: string }> {
  const dir = join(stackDir, name);
  writeFileSync(dir, JSON.stringify(json));
  const cloud = await startLocalCloud({ stackFile: dir });
  const outcomes: CloudEvent[] = [];
  cloud.subscribe((event) => event.type === "record-outcome" && outcomes.push(event));
  const body = JSON.stringify({ tenantId: "t1", orderId: "o-refused", amount: 100, currency: "XXX" });
  await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: body }));
  await waitFor(() => outcomes.length === 1, { timeoutMs: 30_000, message: "the refused payment's outcome" });
  expect(outcomes[0]).toMatchObject({ outcome: "quarantined", reason: "rejected" });
  await cloud.drain();
  await cloud.alarms.advance(120);
  return { cloud, dir };
}

describe("Local alarms: a quarantined message on call", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack?.cleanup());

  describe("this release's alarms", () => {
    let run: { cloud: LocalCloud; dir: string } | undefined;
    beforeAll(async () => {
      run = await quarantineOne(stack.stackDir, "this-release.tf.json", stack.json);
    }, 120_000);
    afterAll(async () => {
      await run?.cloud.stop();
      if (run) rmSync(run.dir, { force: true });
    });

    it("pages: the DLQ alarms fire and notify the stack's SNS topic; the refusal is no function failure", () => {
      const { alarms, outputs } = run!.cloud;
      const fired = new Map(alarms.fired().map((t) => [t.alarm, t]));
      expect([...fired.keys()].sort()).toEqual(["test-dlq-arrivals", "test-dlq-depth"]);
      for (const t of fired.values()) expect(t.actions).toEqual([outputs.alarm_topic_arn]);
      expect(fired.get("test-dlq-depth")!.reason).toMatch(/^1 out of the last 1 datapoints \[1 /);
      // One invocation per batch (the default): the refusal is the record's answer, not a Lambda error, and the metric
      // filter does not count it either (its line has no functionError). Per record, Lambda counts the PermanentError
      // in Errors and the filter counts its line, which says the invocation threw (function-errors.test.ts).
      expect(alarms.state("test-function-errors")).not.toBe("ALARM");
    });

    it("an idle day later, the DLQ alarm is still in ALARM, and the arrivals alarm does not fire again", async () => {
      const { alarms } = run!.cloud;
      await alarms.advance(DAY);
      expect(alarms.state("test-dlq-depth")).toBe("ALARM");
      expect(alarms.fired().filter((t) => t.alarm === "test-dlq-arrivals")).toHaveLength(1);
      // The keep-alive called the DLQ every hour: SQS kept publishing its metrics.
      expect(alarms.scheduleRuns().get("test-dlq-keepalive")).toBe(24);
    }, 300_000);

    it("nine days in the DLQ, the expiry alarm fires, a day before SQS's retention can delete the message", async () => {
      const { alarms } = run!.cloud;
      expect(alarms.state("test-dlq-expiry")).not.toBe("ALARM");
      await alarms.advance(8 * DAY - 2 * 3600);
      expect(alarms.state("test-dlq-expiry")).not.toBe("ALARM");
      await alarms.advance(3 * 3600);
      expect(alarms.state("test-dlq-expiry")).toBe("ALARM");
      expect(alarms.state("test-dlq-depth")).toBe("ALARM");
    }, 900_000);
  });

  describe("a48d984's alarms (the defects this release fixes)", () => {
    let run: { cloud: LocalCloud; dir: string } | undefined;
    // a48d984 invoked the function once per record, so its refusal was a Lambda error; in a batch it is an answer.
    let perRecord: SynthesizedStack | undefined;
    beforeAll(async () => {
      perRecord = synthStack({ batchInvocation: false });
      run = await quarantineOne(perRecord.stackDir, "a48d984.tf.json", withA48d984Alarms(perRecord.json, "test"));
    }, 120_000);
    afterAll(async () => {
      await run?.cloud.stop();
      if (run) rmSync(run.dir, { force: true });
      perRecord?.cleanup();
    });

    it("the PermanentError fires the function errors alarm, and no alarm has an action", () => {
      const { alarms } = run!.cloud;
      expect(alarms.fired().map((t) => t.alarm).sort()).toEqual(["test-dlq-depth", "test-function-errors"]);
      for (const t of alarms.fired()) expect(t.actions).toEqual([]);
    });

    it("an idle day later, the DLQ alarm has returned to OK with the message still in the DLQ", async () => {
      const { alarms } = run!.cloud;
      await alarms.advance(DAY);
      expect(alarms.state("test-dlq-depth")).toBe("OK");
      const back = alarms.history().find((t) => t.alarm === "test-dlq-depth" && t.to === "OK")!;
      expect(back.reason).toMatch(/missing/);
    }, 300_000);
  });
});
