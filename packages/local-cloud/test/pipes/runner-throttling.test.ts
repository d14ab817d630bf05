import { SyncExpressLimit, ThrottlingException } from "../../src/cloud/sync-express-limit";
import { isThrottling, MAX_THROTTLE_BACKOFF_MS, throttleBackoffMs } from "../../src/pipes/throttling";
import { createHarness, until } from "./support/harness";
import type { Harness } from "./support/harness";

let h: Harness | undefined;

afterEach(async () => {
  if (!h) return;
  const stopped = h.runner.stop({ gracePeriodMs: 0 });
  await h.clock.advance(0);
  await stopped;
  h = undefined;
});

describe("StartSyncExecution concurrency limit (local/cloud/sync-express-limit.ts)", () => {
  it("refuses a start beyond the limit with ThrottlingException (HTTP 400) and frees the slot when an execution ends", async () => {
    const limit = new SyncExpressLimit(1);
    let finish!: () => void;
    const first = limit.run(() => new Promise<string>((resolve) => (finish = () => resolve("done"))));
    const refused = await limit.run(async () => "never").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ThrottlingException);
    expect(refused).toMatchObject({ name: "ThrottlingException", $metadata: { httpStatusCode: 400 }, message: "Rate exceeded" });
    expect(limit.stats()).toEqual({ limit: 1, inFlight: 1, throttled: 1 });
    finish();
    await expect(first).resolves.toBe("done");
    await expect(limit.run(async () => "second")).resolves.toBe("second");
    expect(limit.stats()).toEqual({ limit: 1, inFlight: 0, throttled: 1 });
  });

  it("takes only a whole number of executions >= 1", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new SyncExpressLimit(bad)).toThrow(/syncExpressConcurrency/);
  });
});

describe("Pipe runner: throttled target calls (local/pipes/throttling.ts)", () => {
  it("recognises the throttling errors of Step Functions and Lambda, not other failures", () => {
    expect(isThrottling(new ThrottlingException())).toBe(true);
    expect(isThrottling(Object.assign(new Error("Rate Exceeded."), { name: "TooManyRequestsException" }))).toBe(true);
    expect(isThrottling(Object.assign(new Error("x"), { $metadata: { httpStatusCode: 429 } }))).toBe(true);
    expect(isThrottling(new Error("connection reset"))).toBe(false);
    expect(isThrottling("ThrottlingException")).toBe(false);
  });

  it("backs off 100 ms doubling to at most 1 s", () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => throttleBackoffMs(n, 100))).toEqual([100, 200, 400, 800, MAX_THROTTLE_BACKOFF_MS, MAX_THROTTLE_BACKOFF_MS]);
  });

  it("holds the batch and retries throttled calls past targetErrorRetries, then acknowledges: no receive is spent", async () => {
    h = createHarness({ targetErrorRetries: 0, throttleBackoffMs: 100 });
    const harness = h;
    let calls = 0;
    harness.respond(async () => {
      calls++;
      if (calls <= 4) throw new ThrottlingException();
      return { status: "SUCCEEDED" };
    });
    const id = harness.sqs.sendMessage("a");
    harness.runner.start();
    for (const [call, wait] of [[1, 100], [2, 200], [3, 400], [4, 800]] as const) {
      await until(() => calls === call, `call ${call}`);
      await harness.clock.advance(wait);
    }
    await until(() => harness.eventsOf("batch-completed").length === 1, "acknowledged after the throttles");
    expect(harness.eventsOf("target-error").map((e) => [e.attempt, e.willRetry, e.throttled])).toEqual([
      [1, true, true],
      [2, true, true],
      [3, true, true],
      [4, true, true],
    ]);
    expect(harness.eventsOf("records-retry")).toEqual([]);
    expect(harness.eventsOf("batch-received")).toHaveLength(1);
    expect(harness.sqs.remainingIds()).not.toContain(id);
    expect(harness.runner.stats().executions).toMatchObject({ started: 5, throttled: 4, targetErrors: 0, succeeded: 1 });
  });
});
