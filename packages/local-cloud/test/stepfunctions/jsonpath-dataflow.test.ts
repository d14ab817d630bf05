/** JSONPath states: InputPath/Parameters/ResultSelector/ResultPath/OutputPath, context paths, intrinsic functions. */
import { runOnce, types } from "@effectively-once/testing";

const pass = (state: Record<string, unknown>) => ({ StartAt: "S", States: { S: { Type: "Pass", End: true, ...state } } });

describe("JSONPath data flow", () => {
  it("runs the guide's InputPath -> ResultPath -> OutputPath example", async () => {
    // Guide "Processing input and output": a Lambda says "Hello, <who>!".
    const lambda = async (req: { Payload: string }) => ({ StatusCode: 200, Payload: JSON.stringify(`Hello, ${JSON.parse(req.Payload).who}!`) });
    const def = {
      StartAt: "Lambda",
      States: {
        Lambda: {
          Type: "Task",
          Resource: "arn:aws:lambda:us-east-1:123456789012:function:HelloFunction",
          InputPath: "$.lambda",
          ResultPath: "$.data.lambdaresult",
          OutputPath: "$.data",
          End: true,
        },
      },
    };
    const input = { comment: "An input comment.", data: { val1: 23, val2: 17 }, extra: "foo", lambda: { who: "AWS Step Functions" } };
    const run = await runOnce(def, input, { integrations: { lambda } });
    expect(run.output).toEqual({ val1: 23, val2: 17, lambdaresult: "Hello, AWS Step Functions!" });
    expect(types(run)).toContain("LambdaFunctionSucceeded");
  });

  it("applies ResultSelector before ResultPath (guide's EMR-style example)", async () => {
    const lambda = async () => ({ StatusCode: 200, Payload: JSON.stringify({ resourceType: "elasticmapreduce", output: { ClusterId: "AKIAIOSFODNN7EXAMPLE", Other: 1 } }) });
    const def = {
      StartAt: "T",
      States: {
        T: {
          Type: "Task",
          Resource: "arn:aws:lambda:us-east-1:123456789012:function:f",
          ResultSelector: { "ClusterId.$": "$.output.ClusterId", "ResourceType.$": "$.resourceType" },
          ResultPath: "$.EMROutput",
          End: true,
        },
      },
    };
    const run = await runOnce(def, { In: 1 }, { integrations: { lambda } });
    expect(run.output).toEqual({ In: 1, EMROutput: { ClusterId: "AKIAIOSFODNN7EXAMPLE", ResourceType: "elasticmapreduce" } });
  });

  it("supports ResultPath null, InputPath null and Result", async () => {
    expect((await runOnce(pass({ Result: { x: 1 }, ResultPath: null }), { keep: true })).output).toEqual({ keep: true });
    expect((await runOnce(pass({ InputPath: null }), { drop: true })).output).toEqual({});
    expect((await runOnce(pass({ Result: "r", ResultPath: "$.a.b" }), { a: { c: 1 } })).output).toEqual({ a: { c: 1, b: "r" } });
  });

  it("reads the context object with $$ and variables with $name", async () => {
    const def = {
      StartAt: "A",
      States: {
        A: { Type: "Pass", Assign: { greeting: "hi", "fromInput.$": "$.v" }, Next: "B" },
        B: { Type: "Pass", Parameters: { "state.$": "$$.State.Name", "exec.$": "$$.Execution.Name", "g.$": "$greeting", "v.$": "$fromInput" }, End: true },
      },
    };
    const run = await runOnce(def, { v: 7 });
    expect(run.output).toEqual({ state: "B", exec: run.name, g: "hi", v: 7 });
  });

  it("fails with States.Runtime when a Parameters path is missing in a Pass state (AWS words)", async () => {
    const run = await runOnce(pass({ Parameters: { "value.$": "$.no_such_jsonpath" } }), { a: 1 });
    expect(run.error).toBe("States.Runtime");
    expect(run.cause).toBe(
      "An error occurred while executing the state 'S' (entered at the event id #2). The JSONPath '$.no_such_jsonpath' specified for the field 'value.$' could not be found in the input '{\"a\":1}'",
    );
  });

  it("fails with States.Runtime when an InputPath matches nothing", async () => {
    const run = await runOnce(pass({ InputPath: "$.missing" }), {});
    expect(run.error).toBe("States.Runtime");
    expect(run.cause).toContain("Invalid path '$.missing' : No results for path: $['missing']");
  });

  it("computes the intrinsic functions' documented results", async () => {
    const run = await runOnce(
      pass({
        Parameters: {
          "format.$": "States.Format('Hello, my name is {}.', $.name)",
          "toJson.$": "States.StringToJson($.someString)",
          "toString.$": "States.JsonToString($.someJson)",
          "array.$": "States.Array('Foo', 2020, $.someJson, null)",
          "partition.$": "States.ArrayPartition($.inputArray, 4)",
          "contains.$": "States.ArrayContains($.inputArray, $.lookingFor)",
          "range.$": "States.ArrayRange(1, 9, 2)",
          "item.$": "States.ArrayGetItem($.inputArray, $.index)",
          "length.$": "States.ArrayLength($.inputArray)",
          "unique.$": "States.ArrayUnique($.dups)",
          "b64.$": "States.Base64Encode($.text)",
          "unb64.$": "States.Base64Decode('RGF0YSB0byBlbmNvZGU=')",
          "hash.$": "States.Hash($.Data, $.Algorithm)",
          "merged.$": "States.JsonMerge($.json1, $.json2, false)",
          "add.$": "States.MathAdd($.value1, $.step)",
          "split.$": "States.StringSplit($.inputString, $.splitter)",
          "split2.$": "States.StringSplit('This.is+a,test=string', '.+,=')",
          "random.$": "States.MathRandom($.start, $.end)",
          "uuid.$": "States.UUID()",
          "nested.$": "States.Format('{} items', States.ArrayLength($.inputArray))",
          "escaped.$": "States.Format('It\\'s {}', $.name)",
        },
      }),
      {
        name: "Arnav",
        someString: '{"number": 20}',
        someJson: { name: "Foo", year: 2020 },
        inputArray: [1, 2, 3, 4, 5, 6, 7, 8, 9],
        lookingFor: 5,
        index: 5,
        dups: [1, 2, 3, 3, 3, 3, 3, 3, 4],
        text: "Data to encode",
        Data: "input data",
        Algorithm: "SHA-1",
        json1: { a: { a1: 1, a2: 2 }, b: 2 },
        json2: { a: { a3: 1, a4: 2 }, c: 3 },
        value1: 111,
        step: -1,
        inputString: "1,2,3,4,5",
        splitter: ",",
        start: 1,
        end: 999,
      },
    );
    const o = run.output as Record<string, unknown>;
    expect(run.status).toBe("SUCCEEDED");
    expect(o).toMatchObject({
      format: "Hello, my name is Arnav.",
      toJson: { number: 20 },
      toString: '{"name":"Foo","year":2020}',
      array: ["Foo", 2020, { name: "Foo", year: 2020 }, null],
      partition: [[1, 2, 3, 4], [5, 6, 7, 8], [9]],
      contains: true,
      range: [1, 3, 5, 7, 9],
      item: 6,
      length: 9,
      unique: [1, 2, 3, 4],
      b64: "RGF0YSB0byBlbmNvZGU=",
      unb64: "Data to encode",
      hash: "aaff4a450a104cd177d28d18d74485e8cae074b7",
      merged: { a: { a3: 1, a4: 2 }, b: 2, c: 3 },
      add: 110,
      split: ["1", "2", "3", "4", "5"],
      split2: ["This", "is", "a", "test", "string"],
      nested: "9 items",
      escaped: "It's Arnav",
    });
    expect(o.random).toBeGreaterThanOrEqual(1);
    expect(o.random).toBeLessThan(999);
    expect(o.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("fails an intrinsic with invalid arguments with States.IntrinsicFailure, catchable in a Task", async () => {
    const lambda = async () => ({ StatusCode: 200, Payload: "{}" });
    const def = {
      StartAt: "T",
      States: {
        T: {
          Type: "Task",
          Resource: "arn:aws:states:::lambda:invoke",
          Parameters: { FunctionName: "f", "Payload.$": "States.ArrayGetItem($.a, 10)" },
          Catch: [{ ErrorEquals: ["States.IntrinsicFailure"], Next: "Caught" }],
          End: true,
        },
        Caught: { Type: "Pass", End: true },
      },
    };
    const run = await runOnce(def, { a: [1] }, { integrations: { lambda } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toMatchObject({ Error: "States.IntrinsicFailure" });
  });
});
