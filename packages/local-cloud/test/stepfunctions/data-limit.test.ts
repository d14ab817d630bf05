/**
 * States.DataLimitExceeded: 256 KiB (262,144 bytes of UTF-8 JSON) for a task's result, a state's input and
 * output, and one Assign's variables.
 *
 * Expectations marked [recorded] follow executions recorded on AWS in LocalStack's AWS-validated snapshot
 * tests/aws/services/stepfunctions/v2/error_handling/test_states_errors.snapshot.json (recorded 2024-03-21):
 * test_service_task_lambada_data_limit_exceeded_on_large_utf8_response (lambda:invoke result, caught by name),
 * ..._catch_state_all_... (caught by States.ALL, although the docs say it cannot be),
 * test_task_lambda_data_limit_exceeded_on_large_utf8_response (legacy function ARN: the ARN in the cause,
 * LambdaFunctionFailed), test_start_large_input (a Pass output over the quota: ExecutionFailed right after
 * PassStateEntered). [docs] = AWS "Handling errors in Step Functions workflows" and "Step Functions service
 * quotas"; the wording of those causes is ours.
 */
import type { LambdaInvoker } from "../../src/stepfunctions";
import { runOnce, types } from "@effectively-once/testing";

const LIMIT = 262_144;
/** Lambda returning a string payload of `chars` characters (two UTF-8 bytes each when `wide`). */
const returning = (chars: number, wide = false): LambdaInvoker => async () => ({
  StatusCode: 200,
  Payload: JSON.stringify((wide ? "é" : "a").repeat(chars)),
});
const FUNCTION_ARN = "arn:aws:lambda:us-east-1:123456789012:function:big";

function invokeWithCatch(resource: string, errorEquals: string[]) {
  return {
    StartAt: "InvokeLambda",
    States: {
      InvokeLambda: {
        Type: "Task",
        Resource: resource,
        ...(resource === "arn:aws:states:::lambda:invoke" ? { Parameters: { FunctionName: FUNCTION_ARN, Payload: {} } } : {}),
        Catch: [{ ErrorEquals: errorEquals, Next: "Handle" }],
        End: true,
      },
      Handle: { Type: "Pass", End: true },
    },
  };
}

describe("States.DataLimitExceeded", () => {
  it("[recorded] a lambda:invoke result over 256 KiB is a TaskFailed that a Catch on the name handles", async () => {
    const run = await runOnce(invokeWithCatch("arn:aws:states:::lambda:invoke", ["States.DataLimitExceeded"]), {}, {
      integrations: { lambda: returning(LIMIT / 2 + 10, true) },
    });
    const cause = "The state/task 'lambda' returned a result with a size exceeding the maximum number of bytes service limit.";
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ Error: "States.DataLimitExceeded", Cause: cause });
    expect(run.events.find((e) => e.type === "TaskFailed")?.details).toEqual(
      expect.objectContaining({ error: "States.DataLimitExceeded", cause, resource: "invoke", resourceType: "lambda" }),
    );
    expect(types(run)).toEqual([
      "ExecutionStarted", "TaskStateEntered", "TaskScheduled", "TaskStarted", "TaskFailed", "TaskStateExited",
      "PassStateEntered", "PassStateExited", "ExecutionSucceeded",
    ]);
  });

  it("[recorded] States.ALL catches it too, against the documentation", async () => {
    const run = await runOnce(invokeWithCatch("arn:aws:states:::lambda:invoke", ["States.ALL"]), {}, {
      integrations: { lambda: returning(LIMIT + 1) },
    });
    expect(run.status).toBe("SUCCEEDED");
    expect((run.output as { Error: string }).Error).toBe("States.DataLimitExceeded");
  });

  it("[recorded] a legacy function-ARN task names the ARN and records LambdaFunctionFailed", async () => {
    const run = await runOnce(invokeWithCatch(FUNCTION_ARN, ["States.DataLimitExceeded"]), {}, {
      integrations: { lambda: returning(LIMIT + 1) },
    });
    expect(run.output).toEqual({
      Error: "States.DataLimitExceeded",
      Cause: `The state/task '${FUNCTION_ARN}' returned a result with a size exceeding the maximum number of bytes service limit.`,
    });
    expect(types(run)).toContain("LambdaFunctionFailed");
  });

  it("counts UTF-8 bytes, not characters: 131,072 two-byte characters fit, 131,100 do not", async () => {
    // The lambda:invoke result wraps the payload with StatusCode and metadata; the payload alone decides here.
    const fits = await runOnce(invokeWithCatch(FUNCTION_ARN, ["States.ALL"]), {}, { integrations: { lambda: returning(131_000, true) } });
    const over = await runOnce(invokeWithCatch(FUNCTION_ARN, ["States.ALL"]), {}, { integrations: { lambda: returning(131_100, true) } });
    expect(fits.output).not.toHaveProperty("Error");
    expect(over.output).toHaveProperty("Error", "States.DataLimitExceeded");
  });

  it("[recorded] a Pass whose output is over 256 KiB fails the execution at once: no state exit, no Catch", async () => {
    const definition = { StartAt: "State_1", States: { State_1: { Type: "Pass", Result: { Arg1: "a".repeat(257 * 1024) }, End: true } } };
    const run = await runOnce(definition, {});
    expect(run.status).toBe("FAILED");
    expect(run).toMatchObject({
      error: "States.DataLimitExceeded",
      cause: "The state/task 'State_1' returned a result with a size exceeding the maximum number of bytes service limit.",
    });
    expect(types(run)).toEqual(["ExecutionStarted", "PassStateEntered", "ExecutionFailed"]);
  });

  it("[docs] a state output over the quota is not caught even inside a Map with States.ALL", async () => {
    const definition = {
      QueryLanguage: "JSONata",
      StartAt: "M",
      States: {
        M: {
          Type: "Map",
          Items: [1],
          ItemProcessor: { StartAt: "Big", States: { Big: { Type: "Pass", Output: "{% $pad('', 262145, 'x') %}", End: true } } },
          Catch: [{ ErrorEquals: ["States.ALL"], Next: "Caught" }],
          End: true,
        },
        Caught: { Type: "Succeed" },
      },
    };
    const run = await runOnce(definition, {});
    expect(run).toMatchObject({ status: "FAILED", error: "States.DataLimitExceeded" });
  });

  it("[docs] a task input over the quota after Arguments fails the execution, uncaught", async () => {
    const definition = {
      QueryLanguage: "JSONata",
      StartAt: "T",
      States: {
        T: {
          Type: "Task",
          Resource: "arn:aws:states:::lambda:invoke",
          Arguments: { FunctionName: FUNCTION_ARN, Payload: "{% $pad('', 262145, 'x') %}" },
          Catch: [{ ErrorEquals: ["States.ALL"], Next: "Caught" }],
          End: true,
        },
        Caught: { Type: "Succeed" },
      },
    };
    let called = false;
    const run = await runOnce(definition, {}, { integrations: { lambda: async () => ((called = true), { StatusCode: 200, Payload: "{}" }) } });
    expect(run).toMatchObject({ status: "FAILED", error: "States.DataLimitExceeded", cause: expect.stringMatching(/'T' has an input/) });
    expect(called).toBe(false);
  });

  it("[docs] the variables of one Assign over 256 KiB fail the execution, uncaught", async () => {
    const definition = {
      QueryLanguage: "JSONata",
      StartAt: "A",
      States: { A: { Type: "Pass", Assign: { big: "{% $pad('', 200000, 'x') %}", more: "{% $pad('', 70000, 'y') %}" }, End: true } },
    };
    const run = await runOnce(definition, {});
    expect(run).toMatchObject({ status: "FAILED", error: "States.DataLimitExceeded", cause: expect.stringMatching(/variables assigned by the state 'A'/) });
  });

  it("leaves outputs of exactly 262,144 bytes alone", async () => {
    // JSON text of a string = its characters + 2 quotes.
    const run = await runOnce({ QueryLanguage: "JSONata", StartAt: "P", States: { P: { Type: "Pass", Output: `{% $pad('', ${LIMIT - 2}, 'x') %}`, End: true } } }, {});
    expect(run.status).toBe("SUCCEEDED");
  });
});
