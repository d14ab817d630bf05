/** Map concurrency, tolerated failures, sibling abort, ItemSelector context. */
import { DefinitionError, type LambdaInvoker } from "../../src/stepfunctions";
import { FakeClock } from "@effectively-once/testing";
import { machine, runOnce, types } from "@effectively-once/testing";

/** An invoker that counts concurrent calls; each call ends after a virtual sleep. */
function concurrencyProbe(clock: FakeClock) {
  let active = 0;
  const probe = { max: 0, calls: 0 };
  const invoker: LambdaInvoker = async (req) => {
    active++;
    probe.calls++;
    probe.max = Math.max(probe.max, active);
    await clock.sleep(1000);
    active--;
    const n = JSON.parse(req.Payload) as number;
    if (n < 0) return { StatusCode: 200, FunctionError: "Unhandled", Payload: '{"errorType":"Negative"}' };
    return { StatusCode: 200, Payload: JSON.stringify(n * 2) };
  };
  return { invoker, probe };
}

function mapDef(extra: Record<string, unknown>, mode: "INLINE" | "DISTRIBUTED" = "INLINE") {
  return {
    QueryLanguage: "JSONata",
    StartAt: "M",
    States: {
      M: {
        Type: "Map",
        Items: "{% $states.input %}",
        ItemProcessor: {
          ProcessorConfig: { Mode: mode, ...(mode === "DISTRIBUTED" ? { ExecutionType: "EXPRESS" } : {}) },
          StartAt: "T",
          States: { T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f", Payload: "{% $states.input %}" }, Output: "{% $states.result.Payload %}", End: true } },
        },
        End: true,
        ...extra,
      },
    },
  };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("Map", () => {
  it.each([
    [3, 10, 3],
    [1, 5, 1],
    [0, 100, 40],
    [100, 100, 40],
  ])("runs at most MaxConcurrency=%i iterations at once (items %i -> max %i)", async (maxConcurrency, items, expected) => {
    const clock = new FakeClock();
    const { invoker, probe } = concurrencyProbe(clock);
    const run = await runOnce(mapDef({ MaxConcurrency: maxConcurrency }), range(items), { clock, integrations: { lambda: invoker } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual(range(items).map((i) => i * 2));
    expect(probe.max).toBe(expected);
  });

  it("fails with the iteration's error and aborts the other iterations", async () => {
    const clock = new FakeClock();
    const { invoker, probe } = concurrencyProbe(clock);
    const run = await runOnce(mapDef({ MaxConcurrency: 2 }), [1, -1, 3, 4, 5, 6], { clock, integrations: { lambda: invoker } });
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("Negative");
    expect(probe.calls).toBeLessThan(6);
    expect(types(run)).toEqual(expect.arrayContaining(["MapIterationFailed", "MapStateFailed"]));
  });

  it("tolerates failures up to ToleratedFailureCount in DISTRIBUTED mode, then fails with States.ExceedToleratedFailureThreshold", async () => {
    const clock = new FakeClock();
    const ok = await runOnce(mapDef({ ToleratedFailureCount: 1, MaxConcurrency: 1 }, "DISTRIBUTED"), [1, -1, 3], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } });
    expect(ok.status).toBe("SUCCEEDED");
    expect(ok.output).toEqual([2, { Error: "Negative", Cause: '{"errorType":"Negative"}' }, 6]);
    const over = await runOnce(mapDef({ ToleratedFailureCount: 1, MaxConcurrency: 1 }, "DISTRIBUTED"), [-1, -2, 3], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } });
    expect([over.status, over.error, over.cause]).toEqual(["FAILED", "States.ExceedToleratedFailureThreshold", "The specified tolerated failure threshold was exceeded"]);
  });

  it("tolerates a failure percentage", async () => {
    const clock = new FakeClock();
    const def = mapDef({ ToleratedFailurePercentage: 50, MaxConcurrency: 1 }, "DISTRIBUTED");
    expect((await runOnce(def, [-1, 2], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } })).status).toBe("SUCCEEDED");
    expect((await runOnce(def, [-1, -2, 3], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } })).error).toBe("States.ExceedToleratedFailureThreshold");
  });

  it("accepts ToleratedFailureCount/Percentage on an INLINE map and applies them as in DISTRIBUTED mode", async () => {
    // Accepted: recorded on AWS (see recorded-on-aws.test.ts). Applied: not recorded for inline maps.
    const clock = new FakeClock();
    const ok = await runOnce(mapDef({ ToleratedFailureCount: 1, MaxConcurrency: 1 }), [1, -1, 3], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } });
    expect(ok.output).toEqual([2, { Error: "Negative", Cause: '{"errorType":"Negative"}' }, 6]);
    const over = await runOnce(mapDef({ ToleratedFailurePercentage: 40, MaxConcurrency: 1 }), [-1, 2], { clock, integrations: { lambda: concurrencyProbe(clock).invoker } });
    expect(over.error).toBe("States.ExceedToleratedFailureThreshold");
  });

  it("keeps Label for DISTRIBUTED maps", () => {
    expect(() => machine(mapDef({ Label: "x" }))).toThrow(DefinitionError);
    expect(() => machine(mapDef({ Label: "x" }))).toThrow(/only supported by a Map state in DISTRIBUTED mode/);
  });

  it("gives ItemSelector the item's index and value, and the Map's input", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "M",
      States: {
        M: {
          Type: "Map",
          Items: "{% $states.input.list %}",
          ItemSelector: { index: "{% $states.context.Map.Item.Index %}", value: "{% $states.context.Map.Item.Value %}", tag: "{% $states.input.tag %}" },
          ItemProcessor: { StartAt: "P", States: { P: { Type: "Pass", End: true } } },
          End: true,
        },
      },
    };
    expect((await runOnce(def, { list: ["a", "b"], tag: "t" })).output).toEqual([
      { index: 0, value: "a", tag: "t" },
      { index: 1, value: "b", tag: "t" },
    ]);
  });

  it("supports the JSONPath form: ItemsPath, Parameters with $$.Map.Item, ResultPath", async () => {
    const def = {
      StartAt: "M",
      States: {
        M: {
          Type: "Map",
          ItemsPath: "$.detail.shipped",
          Parameters: { "item.$": "$$.Map.Item.Value", "i.$": "$$.Map.Item.Index" },
          Iterator: { StartAt: "P", States: { P: { Type: "Pass", End: true } } },
          ResultPath: "$.detail.results",
          End: true,
        },
      },
    };
    const run = await runOnce(def, { detail: { shipped: [{ p: 1 }, { p: 2 }] } });
    expect(run.output).toEqual({ detail: { shipped: [{ p: 1 }, { p: 2 }], results: [{ item: { p: 1 }, i: 0 }, { item: { p: 2 }, i: 1 }] } });
    const bad = await runOnce(def, { detail: { shipped: "x" } });
    expect([bad.error, bad.cause]).toEqual(["States.Runtime", "An error occurred while executing the state 'M' (entered at the event id #2). Reference path \"$.detail.shipped\" must point to array."]);
  });
});

describe("Parallel", () => {
  it("runs branches on the same input and outputs their results in order", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "P",
      States: {
        P: {
          Type: "Parallel",
          Arguments: { n: "{% $states.input.n %}" },
          Branches: [
            { StartAt: "A", States: { A: { Type: "Wait", Seconds: 5, Next: "A2" }, A2: { Type: "Pass", Output: "{% $states.input.n + 1 %}", End: true } } },
            { StartAt: "B", States: { B: { Type: "Pass", Output: "{% $states.input.n * 10 %}", End: true } } },
          ],
          Output: { results: "{% $states.result %}" },
          End: true,
        },
      },
    };
    const run = await runOnce(def, { n: 2 });
    expect(run.output).toEqual({ results: [3, 20] });
    expect(types(run)).toEqual(expect.arrayContaining(["ParallelStateStarted", "ParallelStateSucceeded"]));
  });
});
