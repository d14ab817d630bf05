/** Retry timing on a fake clock: intervals, backoff, MaxDelaySeconds, MaxAttempts, JitterStrategy. */
import type { LambdaInvoker } from "../../src/stepfunctions";
import { retryDelayMs } from "../../src/stepfunctions/runtime/retry";
import { FakeClock } from "@effectively-once/testing";
import { runOnce } from "@effectively-once/testing";

/** Fails `failures` times with `errorType`, then succeeds; records the clock time of every call. */
function flaky(clock: FakeClock, failures: number, errorType = "Flaky"): { invoker: LambdaInvoker; calls: number[] } {
  const calls: number[] = [];
  const invoker: LambdaInvoker = async () => {
    calls.push(clock.now());
    if (calls.length <= failures) return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType }) };
    return { StatusCode: 200, Payload: JSON.stringify({ attempt: calls.length }) };
  };
  return { invoker, calls };
}

function retryMachine(retry: Record<string, unknown>[]) {
  return {
    QueryLanguage: "JSONata",
    StartAt: "T",
    States: {
      T: {
        Type: "Task",
        Resource: "arn:aws:states:::lambda:invoke",
        Arguments: { FunctionName: "f" },
        Retry: retry,
        Output: { payload: "{% $states.result.Payload %}", retries: "{% $states.context.State.RetryCount %}" },
        End: true,
      },
    },
  };
}

const gaps = (calls: number[]) => calls.slice(1).map((t, i) => t - calls[i]);

describe("Retry", () => {
  it("uses the defaults: IntervalSeconds 1, BackoffRate 2, MaxAttempts 3", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 3);
    const run = await runOnce(retryMachine([{ ErrorEquals: ["Flaky"] }]), {}, { clock, integrations: { lambda: invoker } });
    expect(run.status).toBe("SUCCEEDED");
    expect(gaps(calls)).toEqual([1000, 2000, 4000]);
    expect(run.output).toEqual({ payload: { attempt: 4 }, retries: 3 });
  });

  it("gives up after MaxAttempts and reports the last error", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 10);
    const run = await runOnce(retryMachine([{ ErrorEquals: ["Flaky"], IntervalSeconds: 3, MaxAttempts: 2, BackoffRate: 1.5 }]), {}, { clock, integrations: { lambda: invoker } });
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("Flaky");
    expect(gaps(calls)).toEqual([3000, 4500]);
  });

  it("never retries with MaxAttempts 0", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 1);
    const run = await runOnce(retryMachine([{ ErrorEquals: ["Flaky"], MaxAttempts: 0 }]), {}, { clock, integrations: { lambda: invoker } });
    expect(run.status).toBe("FAILED");
    expect(calls).toHaveLength(1);
  });

  it("caps the delay at MaxDelaySeconds", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 5);
    await runOnce(retryMachine([{ ErrorEquals: ["Flaky"], IntervalSeconds: 2, BackoffRate: 3, MaxAttempts: 5, MaxDelaySeconds: 10 }]), {}, { clock, integrations: { lambda: invoker } });
    expect(gaps(calls)).toEqual([2000, 6000, 10000, 10000, 10000]);
  });

  it("keeps FULL jitter delays within [0, computed delay]", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 4);
    await runOnce(retryMachine([{ ErrorEquals: ["Flaky"], IntervalSeconds: 4, MaxAttempts: 4, JitterStrategy: "FULL" }]), {}, { clock, integrations: { lambda: invoker } });
    const bounds = [4000, 8000, 16000, 32000];
    gaps(calls).forEach((g, i) => {
      expect(g).toBeGreaterThanOrEqual(0);
      expect(g).toBeLessThanOrEqual(bounds[i]);
    });
    const r = { errorEquals: ["x"], intervalSeconds: 4, maxAttempts: 3, backoffRate: 2, jitter: "FULL" as const };
    expect(retryDelayMs(r, 2, () => 0)).toBe(0);
    expect(retryDelayMs(r, 2, () => 0.5)).toBe(8000);
    expect(retryDelayMs({ ...r, jitter: "NONE" }, 2, () => 0)).toBe(16000);
  });

  it("uses the first matching retrier, each with its own attempt count", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 2, "Other");
    const run = await runOnce(
      retryMachine([
        { ErrorEquals: ["Flaky"], IntervalSeconds: 1, MaxAttempts: 5 },
        { ErrorEquals: ["States.ALL"], IntervalSeconds: 7, MaxAttempts: 2, BackoffRate: 1 },
      ]),
      {},
      { clock, integrations: { lambda: invoker } },
    );
    expect(run.status).toBe("SUCCEEDED");
    expect(gaps(calls)).toEqual([7000, 7000]);
  });

  it("retries Map and Parallel states as a whole", async () => {
    const clock = new FakeClock();
    const { invoker, calls } = flaky(clock, 1);
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "P",
      States: {
        P: {
          Type: "Parallel",
          Branches: [{ StartAt: "T", States: { T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f" }, Output: "{% $states.result.Payload %}", End: true } } }],
          Retry: [{ ErrorEquals: ["States.ALL"], IntervalSeconds: 2 }],
          End: true,
        },
      },
    };
    const run = await runOnce(def, {}, { clock, integrations: { lambda: invoker } });
    expect(run.output).toEqual([{ attempt: 2 }]);
    expect(gaps(calls)).toEqual([2000]);
  });
});
