/** Error names, ErrorEquals matching and what can be caught (AWS "Handling errors in Step Functions workflows"). */
import { StatesErrorName } from "../../src/stepfunctions/errors";
import type { LambdaInvoker } from "../../src/stepfunctions";
import { errorMatches } from "../../src/stepfunctions/runtime/retry";
import { runOnce } from "@effectively-once/testing";

const failing = (errorType: string): LambdaInvoker => async () => ({ StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType, errorMessage: "m" }) });
const hanging: LambdaInvoker = (_req, signal) => new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("aborted"))));

function taskWithCatch(task: Record<string, unknown>, errorEquals: string[], language: "JSONata" | "JSONPath" = "JSONata") {
  return {
    QueryLanguage: language,
    StartAt: "T",
    States: {
      T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", End: true, ...task, Catch: [{ ErrorEquals: errorEquals, Next: "Caught" }] },
      Caught: { Type: "Pass", End: true },
    },
  };
}

describe("ErrorEquals matching", () => {
  it("States.ALL matches every catchable error, never States.Runtime (DataLimitExceeded: see data-limit.test.ts)", () => {
    for (const name of ["Custom", "States.Timeout", "States.TaskFailed", "States.QueryEvaluationError", "States.Permissions", "States.HeartbeatTimeout", "States.BranchFailed"]) {
      expect(errorMatches(["States.ALL"], name)).toBe(true);
    }
    expect(errorMatches(["States.ALL"], StatesErrorName.Runtime)).toBe(false);
    // Recorded on AWS: a task result over the quota is caught by States.ALL; the terminal cases are flagged.
    expect(errorMatches(["States.ALL"], StatesErrorName.DataLimitExceeded)).toBe(true);
    expect(errorMatches(["States.Runtime"], StatesErrorName.Runtime)).toBe(false);
  });

  it("States.TaskFailed matches every error except States.Timeout", () => {
    expect(errorMatches(["States.TaskFailed"], "Lambda.ServiceException")).toBe(true);
    expect(errorMatches(["States.TaskFailed"], "States.HeartbeatTimeout")).toBe(true);
    expect(errorMatches(["States.TaskFailed"], "States.Timeout")).toBe(false);
  });

  it("matches other names exactly (case-sensitive)", () => {
    for (const name of ["States.Permissions", "States.HeartbeatTimeout", "States.BranchFailed", "States.ResultPathMatchFailure", "States.ParameterPathFailure"]) {
      expect(errorMatches([name], name)).toBe(true);
      expect(errorMatches([name], name.toLowerCase())).toBe(false);
    }
  });
});

describe("Errors at run time", () => {
  it("catches a JSONata error in a Task's Arguments with that Task's Catch (States.QueryEvaluationError)", async () => {
    const run = await runOnce(taskWithCatch({ Arguments: { FunctionName: "{% $doesNotExist %}" } }, ["States.QueryEvaluationError"]), {}, { integrations: { lambda: failing("x") } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({
      Error: "States.QueryEvaluationError",
      Cause: "An error occurred while executing the state 'T' (entered at the event id #2). The JSONata expression '$doesNotExist' specified for the field 'Arguments/FunctionName' returned nothing (undefined).",
    });
  });

  it("fails the execution on the same error without a Catch (AWS event sequence)", async () => {
    const def = { QueryLanguage: "JSONata", StartAt: "T", States: { T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "{% $doesNotExist %}" }, End: true } } };
    const run = await runOnce(def);
    expect(run.events.map((e) => e.type)).toEqual(["ExecutionStarted", "TaskStateEntered", "EvaluationFailed", "ExecutionFailed"]);
  });

  it("a Pass state has no Catch, but its error is catchable by an enclosing Parallel", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Guard",
      States: {
        Guard: {
          Type: "Parallel",
          Branches: [{ StartAt: "Parse", States: { Parse: { Type: "Pass", Output: "{% $parse($states.input.body) %}", End: true } } }],
          Catch: [{ ErrorEquals: ["States.QueryEvaluationError"], Output: "{% $states.errorOutput.Error %}", Next: "Bad" }],
          Next: "Good",
        },
        Good: { Type: "Pass", End: true },
        Bad: { Type: "Pass", End: true },
      },
    };
    expect((await runOnce(def, { body: '{"a":1}' })).output).toEqual([{ a: 1 }]);
    const bad = await runOnce(def, { body: "not json" });
    expect(bad.status).toBe("SUCCEEDED");
    expect(bad.output).toBe("States.QueryEvaluationError");
  });

  it("a failing Parallel branch fails the state with the branch's own error", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "P",
      States: {
        P: {
          Type: "Parallel",
          Branches: [{ StartAt: "F", States: { F: { Type: "Fail", Error: "MyError", Cause: "because" } } }],
          Catch: [{ ErrorEquals: ["MyError"], Next: "C" }],
          End: true,
        },
        C: { Type: "Pass", End: true },
      },
    };
    expect((await runOnce(def)).output).toEqual({ Error: "MyError", Cause: "because" });
  });

  it("reports a function error as its errorType with the payload as cause; States.TaskFailed catches it", async () => {
    const run = await runOnce(taskWithCatch({ Arguments: { FunctionName: "f" } }, ["States.TaskFailed"]), {}, { integrations: { lambda: failing("ValidationError") } });
    expect(run.output).toEqual({ Error: "ValidationError", Cause: '{"errorType":"ValidationError","errorMessage":"m"}' });
  });

  it("times a task out with States.Timeout, which States.TaskFailed does not catch", async () => {
    const notCaught = await runOnce(taskWithCatch({ Arguments: { FunctionName: "f" }, TimeoutSeconds: 5 }, ["States.TaskFailed"]), {}, { integrations: { lambda: hanging } });
    expect(notCaught.status).toBe("FAILED");
    expect(notCaught.error).toBe("States.Timeout");
    expect(notCaught.events.map((e) => e.type)).toContain("TaskTimedOut");
    const caught = await runOnce(taskWithCatch({ Arguments: { FunctionName: "f" }, TimeoutSeconds: "{% 2 + 3 %}" }, ["States.Timeout"]), {}, { integrations: { lambda: hanging } });
    expect(caught.output).toMatchObject({ Error: "States.Timeout" });
  });

  it("never catches States.Runtime, even with States.ALL", async () => {
    const def = taskWithCatch({ InputPath: "$.missing", Parameters: { FunctionName: "f" } }, ["States.ALL"], "JSONPath");
    const run = await runOnce(def, {}, { integrations: { lambda: failing("x") } });
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("States.Runtime");
  });

  it("raises States.ResultPathMatchFailure when the ResultPath cannot be applied, catchable", async () => {
    const lambda: LambdaInvoker = async () => ({ StatusCode: 200, Payload: "1" });
    const def = taskWithCatch({ Parameters: { FunctionName: "f" }, ResultPath: "$.a.b" }, ["States.ResultPathMatchFailure"], "JSONPath");
    const run = await runOnce(def, { a: "not an object" }, { integrations: { lambda } });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toMatchObject({ Error: "States.ResultPathMatchFailure" });
  });

  it("raises States.ParameterPathFailure for a missing path in a Task's Parameters, catchable", async () => {
    const def = taskWithCatch({ Parameters: { FunctionName: "f", "Payload.$": "$.nope" } }, ["States.ParameterPathFailure"], "JSONPath");
    const run = await runOnce(def, {}, { integrations: { lambda: failing("x") } });
    expect(run.output).toMatchObject({ Error: "States.ParameterPathFailure" });
  });

  it("catches States.NoChoiceMatched from a Map iteration at the Map", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "M",
      States: {
        M: {
          Type: "Map",
          Items: "{% [1] %}",
          ItemProcessor: { StartAt: "C", States: { C: { Type: "Choice", Choices: [{ Condition: "{% false %}", Next: "X" }] }, X: { Type: "Succeed" } } },
          Catch: [{ ErrorEquals: ["States.NoChoiceMatched"], Next: "Done" }],
          End: true,
        },
        Done: { Type: "Pass", End: true },
      },
    };
    expect((await runOnce(def)).output).toMatchObject({ Error: "States.NoChoiceMatched" });
  });

  it("maps Lambda service errors to Lambda.<Exception>", async () => {
    const throttled: LambdaInvoker = async () => {
      throw Object.assign(new Error("Rate exceeded"), { name: "TooManyRequestsException" });
    };
    const run = await runOnce(taskWithCatch({ Arguments: { FunctionName: "f" } }, ["Lambda.TooManyRequestsException"]), {}, { integrations: { lambda: throttled } });
    expect(run.output).toMatchObject({ Error: "Lambda.TooManyRequestsException", Cause: expect.stringContaining("Rate exceeded (Service: AWSLambda;") });
  });

  it("fails a Fail state with its Error/Cause (JSONata and ErrorPath/CausePath forms)", async () => {
    const jsonata = await runOnce({ QueryLanguage: "JSONata", StartAt: "F", States: { F: { Type: "Fail", Error: "{% $states.input.e %}", Cause: "{% 'c-' & $states.input.c %}" } } }, { e: "E1", c: "x" });
    expect([jsonata.status, jsonata.error, jsonata.cause]).toEqual(["FAILED", "E1", "c-x"]);
    const paths = await runOnce({ StartAt: "F", States: { F: { Type: "Fail", ErrorPath: "$.e", CausePath: "States.Format('n={}', $.n)" } } }, { e: "E2", n: 3 });
    expect([paths.error, paths.cause]).toEqual(["E2", "n=3"]);
  });

  it("fails a task whose resource no integration serves, naming the resource", async () => {
    const def = { QueryLanguage: "JSONata", StartAt: "T", States: { T: { Type: "Task", Resource: "arn:aws:states:::sns:publish", Catch: [{ ErrorEquals: ["States.ALL"], Next: "C" }], End: true }, C: { Type: "Succeed" } } };
    const run = await runOnce(def);
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("States.Runtime");
    expect(run.cause).toContain("'arn:aws:states:::sns:publish' is not supported");
  });
});
