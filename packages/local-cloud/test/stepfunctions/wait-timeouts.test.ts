/** Wait on the injected clock, machine TimeoutSeconds, caller abort. */
import type { LambdaInvoker } from "../../src/stepfunctions";
import { FakeClock } from "@effectively-once/testing";
import { machine, runOnce, types } from "@effectively-once/testing";

describe("Wait", () => {
  it.each([
    [{ Seconds: 10 }, {}, 10000],
    [{ SecondsPath: "$.s" }, { s: 3 }, 3000],
    [{ Timestamp: "2024-01-01T00:01:00Z" }, {}, 60000],
    [{ TimestampPath: "$.t" }, { t: "2024-01-01T00:00:30.5Z" }, 30500],
  ])("JSONPath %j waits the right virtual time", async (fields, input, ms) => {
    const clock = new FakeClock();
    const run = await runOnce({ StartAt: "W", States: { W: { Type: "Wait", End: true, ...fields } } }, input, { clock });
    expect(run.status).toBe("SUCCEEDED");
    expect(clock.sleeps).toEqual([ms]);
    expect(run.stopDate.getTime() - run.startDate.getTime()).toBe(ms);
  });

  it("accepts JSONata Seconds and Timestamp and rejects a bad timestamp in AWS's terms", async () => {
    const clock = new FakeClock();
    const def = (f: Record<string, unknown>) => ({ QueryLanguage: "JSONata", StartAt: "W", States: { W: { Type: "Wait", End: true, ...f } } });
    await runOnce(def({ Seconds: "{% $states.input.s * 2 %}" }), { s: 4 }, { clock });
    await runOnce(def({ Timestamp: "{% $states.input.t %}" }), { t: "2024-01-01T00:00:13Z" }, { clock });
    expect(clock.sleeps).toEqual([8000, 5000]);
    const bad = await runOnce(def({ Timestamp: "{% $states.input.t %}" }), { t: "2016-12-05 21:29:29Z" }, { clock });
    expect(bad.error).toBe("States.QueryEvaluationError");
    const neg = await runOnce({ StartAt: "W", States: { W: { Type: "Wait", SecondsPath: "$.s", End: true } } }, { s: -1 }, { clock });
    expect(neg.error).toBe("States.Runtime");
    const missing = await runOnce({ StartAt: "WaitState", States: { WaitState: { Type: "Wait", SecondsPath: "$.input.waitSeconds", End: true } } }, {}, { clock });
    // Recorded against AWS (LocalStack snapshot test_base_wait_seconds_path).
    expect(missing.cause).toBe("An error occurred while executing the state 'WaitState' (entered at the event id #2). The SecondsPath parameter does not reference an input value: $.input.waitSeconds");
  });
});

describe("Execution timeouts and abort", () => {
  const hanging: LambdaInvoker = (_r, signal) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted"))));
  const def = { QueryLanguage: "JSONata", TimeoutSeconds: 30, StartAt: "W", States: { W: { Type: "Wait", Seconds: 3600, End: true } } };

  it("times the execution out after the machine's TimeoutSeconds", async () => {
    const clock = new FakeClock();
    const run = await runOnce(def, {}, { clock });
    expect(run.status).toBe("TIMED_OUT");
    expect(run.error).toBe("States.Timeout");
    expect(run.stopDate.getTime() - run.startDate.getTime()).toBe(30000);
    expect(types(run).at(-1)).toBe("ExecutionTimedOut");
  });

  it("lets execute() override TimeoutSeconds, and stops in-flight tasks", async () => {
    const clock = new FakeClock();
    let aborted = false;
    const lambda: LambdaInvoker = (r, signal) => {
      signal?.addEventListener("abort", () => (aborted = true));
      return hanging(r, signal);
    };
    const m = machine({ QueryLanguage: "JSONata", StartAt: "T", States: { T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f" }, End: true } } }, { clock, integrations: { lambda } });
    const run = await m.execute({}, { timeoutSeconds: 2 });
    expect(run.status).toBe("TIMED_OUT");
    expect(aborted).toBe(true);
  });

  it("aborts on the caller's signal", async () => {
    const clock = new FakeClock(undefined, false);
    const m = machine(def, { clock });
    const ac = new AbortController();
    const pending = m.execute({}, { signal: ac.signal, timeoutSeconds: 99999 });
    ac.abort();
    const run = await pending;
    expect(run.status).toBe("ABORTED");
  });
});
