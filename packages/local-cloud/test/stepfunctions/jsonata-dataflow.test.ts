/** JSONata states: Arguments/Output/Assign, $states, Step Functions' JSONata functions (AWS developer guide examples). */
import { createHash } from "node:crypto";
import { runOnce, single, types } from "@effectively-once/testing";

describe("JSONata data flow", () => {
  it("converts the guide's JSONPath Parameters sample to Arguments with the same result", async () => {
    // Guide "Transforming data with JSONata": input {"title":"Doctor"}, variable customerName = "María".
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Init",
      States: {
        Init: { Type: "Pass", Assign: { customerName: "María" }, Next: "JsonPathState" },
        JsonPathState: {
          Type: "Pass",
          QueryLanguage: "JSONPath",
          Parameters: { static: "Hello", "title.$": "$.title", "name.$": "$customerName", "not-evaluated": "$customerName" },
          ResultPath: "$.viaJsonPath",
          Next: "JsonataState",
        },
        JsonataState: {
          Type: "Pass",
          Output: {
            viaJsonPath: "{% $states.input.viaJsonPath %}",
            viaJsonata: { static: "Hello", title: "{% $states.input.title %}", name: "{% $customerName %}", "not-evaluated": "$customerName" },
          },
          End: true,
        },
      },
    };
    // A JSONPath state inside a JSONata machine is invalid; run it in a JSONPath machine with a JSONata state.
    const mixed = { ...def, QueryLanguage: "JSONPath", States: { ...def.States, Init: { ...def.States.Init, QueryLanguage: "JSONata" }, JsonataState: { ...def.States.JsonataState, QueryLanguage: "JSONata" } } };
    const run = await runOnce(mixed, { title: "Doctor" });
    const expected = { static: "Hello", title: "Doctor", name: "María", "not-evaluated": "$customerName" };
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ viaJsonPath: expected, viaJsonata: expected });
  });

  it("evaluates {% %} at any depth of Output, including arrays, and keeps literals", async () => {
    const run = await runOnce(single({ Type: "Pass", Output: { a: [1, "{% $states.input.x * 2 %}", { b: "{% $uppercase($states.input.s) %}" }], lit: "x {% not %}" } }), { x: 21, s: "ok" });
    expect(run.output).toEqual({ a: [1, 42, { b: "OK" }], lit: "x {% not %}" });
  });

  it("exposes $states.context with Execution, State and StateMachine fields", async () => {
    const run = await runOnce(single({ Type: "Pass", Output: "{% $states.context %}" }), { in: 1 });
    const ctx = run.output as Record<string, Record<string, unknown>>;
    expect(ctx.Execution).toMatchObject({ Id: run.executionArn, Name: run.name, Input: { in: 1 } });
    expect(typeof ctx.Execution.StartTime).toBe("string");
    expect(typeof ctx.Execution.RoleArn).toBe("string");
    // A Pass state has no RetryCount (recorded on AWS; see context-object.test.ts).
    expect(ctx.State).toEqual({ Name: "S", EnteredTime: expect.any(String) });
    expect(ctx.StateMachine).toEqual({ Id: "arn:aws:states:us-east-1:123456789012:stateMachine:test", Name: "test" });
    expect(ctx.Task).toBeUndefined();
  });

  it("provides $partition, $range, $hash, $random, $uuid and $parse with the guide's results", async () => {
    const run = await runOnce(
      single({
        Type: "Pass",
        Output: {
          partition: "{% $partition([1,2,3,4], 2) %}",
          range: "{% $range(0, 10, 2) %}",
          rangeOne: "{% $range(1, 9, 9) %}",
          md5: "{% $hash('input data', 'MD5') %}",
          sha1: "{% $hash('input data', 'SHA-1') %}",
          sha512: "{% $hash('input data', 'SHA-512') %}",
          random: "{% $random() %}",
          seeded: "{% [$random(7), $random(7)] %}",
          uuid: "{% $uuid() %}",
          parsed: "{% $parse($states.input.body) %}",
        },
      }),
      { body: '{"key":"value","n":[1,2]}' },
    );
    const o = run.output as Record<string, unknown>;
    expect(o.partition).toEqual([[1, 2], [3, 4]]);
    expect(o.range).toEqual([0, 2, 4, 6, 8, 10]);
    expect(o.rangeOne).toBe(1); // AWS returns a bare value for a one-item range (JSONata sequence)
    expect(o.md5).toBe(createHash("md5").update("input data").digest("hex"));
    expect(o.sha1).toBe("aaff4a450a104cd177d28d18d74485e8cae074b7"); // the guide's States.Hash example value
    expect(o.sha512).toBe(createHash("sha512").update("input data").digest("hex"));
    expect(o.random).toBeGreaterThanOrEqual(0);
    expect(o.random).toBeLessThan(1);
    expect((o.seeded as number[])[0]).toBe((o.seeded as number[])[1]);
    expect(o.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(o.parsed).toEqual({ key: "value", n: [1, 2] });
  });

  it("matches AWS for $parse of scalars (LocalStack snapshot recorded against AWS)", async () => {
    const cases: Array<[string, unknown]> = [["1.1", 1.1], ["true", true], ['"HelloWorld"', "HelloWorld"], ['[1, 2, "HelloWorld"]', [1, 2, "HelloWorld"]], ["-0", 0]];
    for (const [text, expected] of cases) {
      const run = await runOnce(single({ Type: "Pass", Output: "{% $parse($states.input.FunctionInput) %}" }), { FunctionInput: text });
      expect(run.output).toEqual(expected);
    }
  });

  it("has no $eval: calling it fails like any non-function (T1006)", async () => {
    const run = await runOnce(single({ Type: "Pass", Output: { r: "{% $eval('1+1') %}" } }));
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("States.QueryEvaluationError");
    expect(run.cause).toBe(
      "An error occurred while executing the state 'S' (entered at the event id #2). The JSONata expression '$eval('1+1')' specified for the field 'Output/r' threw an error during evaluation. T1006: Attempted to invoke a non-function",
    );
  });

  it("fails with AWS's words when an expression returns nothing", async () => {
    const run = await runOnce(single({ Type: "Pass", Output: { result: "{% $doesNotExist %}" } }));
    expect(run.error).toBe("States.QueryEvaluationError");
    expect(run.cause).toBe(
      "An error occurred while executing the state 'S' (entered at the event id #2). The JSONata expression '$doesNotExist' specified for the field 'Output/result' returned nothing (undefined).",
    );
    expect(types(run)).toEqual(["ExecutionStarted", "PassStateEntered", "EvaluationFailed", "ExecutionFailed"]);
    expect(run.events[2].details).toMatchObject({ location: "Output/result", state: "S" });
  });

  it("fails when Map Items is not an array, in AWS's words", async () => {
    const def = single({ Type: "Map", Items: "{% {'foo': 'bar'} %}", ItemProcessor: { StartAt: "P", States: { P: { Type: "Pass", End: true } } } });
    const run = await runOnce(def);
    expect(run.error).toBe("States.QueryEvaluationError");
    expect(run.cause).toBe(
      "An error occurred while executing the state 'S' (entered at the event id #2). The JSONata expression '{'foo': 'bar'}' specified for the field 'Items' returned an unexpected result type. Expected 'array', but was 'object' for value: {\"foo\":\"bar\"}",
    );
  });

  it("uses $states.result in Task Output and passes the result on when Output is absent", async () => {
    const lambda = async (req: { Payload: string }) => ({ StatusCode: 200, Payload: JSON.stringify({ got: JSON.parse(req.Payload) }) });
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "T1",
      States: {
        T1: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f", Payload: { v: "{% $states.input.v %}" } }, Output: "{% $states.result.Payload %}", Next: "T2" },
        T2: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f", Payload: "{% $states.input %}" }, End: true },
      },
    };
    const run = await runOnce(def, { v: 1 }, { integrations: { lambda } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toMatchObject({ ExecutedVersion: "$LATEST", StatusCode: 200, Payload: { got: { got: { v: 1 } } } });
    expect(run.output).toHaveProperty("SdkHttpMetadata.HttpStatusCode", 200);
  });

  it("follows the injected clock in $millis() and $now()", async () => {
    const run = await runOnce(single({ Type: "Pass", Output: { ms: "{% $millis() %}", now: "{% $now() %}" } }));
    expect(run.output).toEqual({ ms: Date.parse("2024-01-01T00:00:00Z"), now: "2024-01-01T00:00:00.000Z" });
  });

  it("lets a JSONata state run inside a JSONPath machine (QueryLanguage at state level)", async () => {
    const def = {
      StartAt: "P1",
      States: {
        P1: { Type: "Pass", Result: { a: 1 }, Next: "P2" },
        P2: { Type: "Pass", QueryLanguage: "JSONata", Output: "{% $states.input.a + 1 %}", End: true },
      },
    };
    expect((await runOnce(def)).output).toBe(2);
  });
});
