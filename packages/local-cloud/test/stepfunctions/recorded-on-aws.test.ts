/**
 * Behaviour recorded on AWS. Every expectation cites the AWS-validated LocalStack snapshot it follows
 * (github.com/localstack/localstack, tests/aws/services/stepfunctions/v2/...; the recording date is in the
 * snapshot). The machines are rebuilt here from the snapshot's template; no code is copied.
 */
import type { LambdaInvoker } from "../../src/stepfunctions";
import { machine, runOnce, types } from "@effectively-once/testing";

const CONTEXT_QUERY = {
  StartAt: "QueryValues1",
  States: {
    QueryValues1: { Type: "Pass", Parameters: { "context_object.$": "$$" }, ResultPath: "$.query_values_1", Next: "QueryValues2" },
    QueryValues2: { Type: "Pass", Parameters: { "context_object.$": "$$" }, ResultPath: "$.query_values_2", End: true },
  },
};

describe("Recorded on AWS: the context object", () => {
  it("STANDARD: Execution {Id, Input, StartTime, Name, RoleArn, RedriveCount}, State {Name, EnteredTime} for a Pass", async () => {
    // base/test_base.snapshot.json › test_query_context_object_values (2024-07-15)
    const run = await runOnce(CONTEXT_QUERY, { message: "TestMessage" });
    const ctx = (run.output as { query_values_1: { context_object: Record<string, Record<string, unknown>> } }).query_values_1.context_object;
    expect(Object.keys(ctx)).toEqual(["Execution", "StateMachine", "State"]);
    expect(Object.keys(ctx.Execution)).toEqual(["Id", "Input", "StartTime", "Name", "RoleArn", "RedriveCount"]);
    expect(ctx.Execution).toMatchObject({ Id: run.executionArn, Input: { message: "TestMessage" }, RedriveCount: 0 });
    expect(Object.keys(ctx.State)).toEqual(["Name", "EnteredTime"]);
    expect(ctx.State.Name).toBe("QueryValues1");
    expect(ctx.StateMachine).toEqual({ Id: "arn:aws:states:us-east-1:123456789012:stateMachine:test", Name: "test" });
  });

  it("EXPRESS: an express execution ARN, and no RedriveCount", async () => {
    // express/test_express_sync.snapshot.json › test_query_runtime_memory (2024-07-15)
    const run = await machine(CONTEXT_QUERY, { type: "EXPRESS" }).execute({ message: "TestMessage" }, { name: "sync-1" });
    const ctx = (run.output as { query_values_1: { context_object: Record<string, Record<string, unknown>> } }).query_values_1.context_object;
    expect(run.executionArn).toMatch(/^arn:aws:states:us-east-1:123456789012:express:test:sync-1:[0-9a-f-]{36}$/);
    expect(ctx.Execution.Id).toBe(run.executionArn);
    expect(ctx.Execution).not.toHaveProperty("RedriveCount");
    expect(Object.keys(ctx.State)).toEqual(["Name", "EnteredTime"]);
  });

  it("a Task with Retry reports State.RetryCount, counting the attempts", async () => {
    // scenarios/test_base_scenarios.snapshot.json › test_lambda_invoke_with_retry_extended_input (2023-10-24):
    // the Lambda input carries $$ with State {Name, EnteredTime, RetryCount: 0, 1, 2, 3}.
    const seen: unknown[] = [];
    const lambda: LambdaInvoker = async (req) => {
      const payload = JSON.parse(req.Payload) as { ThisContextObject: { State: { RetryCount: number } } };
      seen.push(payload.ThisContextObject.State);
      return seen.length < 4
        ? { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Retryable", errorMessage: "again" }) }
        : { StatusCode: 200, Payload: "{}" };
    };
    const run = await runOnce(
      {
        StartAt: "InvokeLambdaWithRetry",
        States: {
          InvokeLambdaWithRetry: {
            Type: "Task",
            Resource: "arn:aws:lambda:us-east-1:123456789012:function:f",
            Parameters: { "ThisContextObject.$": "$$", "ThisState.$": "$" },
            Retry: [{ ErrorEquals: ["States.ALL"], IntervalSeconds: 1, MaxAttempts: 3 }],
            End: true,
          },
        },
      },
      {},
      { integrations: { lambda } },
    );
    expect(run.status).toBe("SUCCEEDED");
    expect(seen).toEqual([0, 1, 2, 3].map((RetryCount) => ({ Name: "InvokeLambdaWithRetry", EnteredTime: expect.any(String), RetryCount })));
  });
});

describe("Recorded on AWS: Fail without Error or Cause", () => {
  it("fails with no error and no cause at all (not empty strings)", async () => {
    // base/test_base.snapshot.json › test_state_fail_empty (2024-03-06): executionFailedEventDetails is {},
    // DescribeExecution has neither error nor cause.
    const run = await runOnce({ StartAt: "FailState", States: { FailState: { Type: "Fail" } } }, {});
    expect(run.status).toBe("FAILED");
    expect(run).not.toHaveProperty("error");
    expect(run).not.toHaveProperty("cause");
    expect(types(run)).toEqual(["ExecutionStarted", "FailStateEntered", "ExecutionFailed"]);
    expect(run.events.at(-1)?.details ?? {}).toEqual({});
  });

  it("inside an inline Map, fails the Map and the execution; catchers of other names do not match", async () => {
    // scenarios/test_base_scenarios.snapshot.json › test_map_state_catch_empty_fail (2023-08-08)
    const run = await runOnce(
      {
        StartAt: "StartState",
        States: {
          StartState: { Type: "Pass", Result: [1], ResultPath: "$.arr", Next: "MapState" },
          MapState: {
            Type: "Map",
            ResultPath: null,
            InputPath: "$.arr",
            MaxConcurrency: 1,
            ItemProcessor: { ProcessorConfig: { Mode: "INLINE" }, StartAt: "HandleItemFail", States: { HandleItemFail: { Type: "Fail" } } },
            Catch: [
              { ErrorEquals: ["Internal Error"], Next: "CaughtInternalError" },
              { ErrorEquals: ["State.ALL"], Next: "CaughtStatesALL" },
            ],
            Next: "CaughtNone",
          },
          CaughtInternalError: { Type: "Pass", End: true },
          CaughtStatesALL: { Type: "Pass", End: true },
          CaughtNone: { Type: "Pass", End: true },
        },
      },
      {},
    );
    expect(types(run)).toEqual([
      "ExecutionStarted", "PassStateEntered", "PassStateExited", "MapStateEntered", "MapStateStarted",
      "MapIterationStarted", "FailStateEntered", "MapIterationFailed", "MapStateFailed", "ExecutionFailed",
    ]);
    expect(run.events.at(-1)?.details ?? {}).toEqual({});
    expect(run).not.toHaveProperty("error");
  });
});

describe("Recorded on AWS: mixed JSONPath and JSONata states", () => {
  // query_language/test_mixed_query_language.snapshot.json (2024-11-07)
  it.each([
    ["JSONATA_OUTPUT_TO_JSONPATH", "JSONata", { Output: { foo: "foobar", bar: "{% $states.input %}" } }, "JSONPath"],
    ["JSONPATH_OUTPUT_TO_JSONATA", "JSONPath", { Parameters: { foo: "foobar", "bar.$": "$" } }, "JSONata"],
  ])("test_output_to_state[%s]: the next state receives the output unchanged", async (_id, firstLanguage, fields, secondLanguage) => {
    const run = await runOnce(
      {
        StartAt: "JSONataState",
        States: {
          JSONataState: { QueryLanguage: firstLanguage, Type: "Pass", ...fields, Next: "JSONPathState" },
          JSONPathState: { QueryLanguage: secondLanguage, Type: "Pass", End: true },
        },
      },
      { input_data: "test" },
    );
    expect(run.output).toEqual({ foo: "foobar", bar: { input_data: "test" } });
    expect(run.events.filter((e) => e.type === "PassStateEntered").map((e) => e.details?.input)).toEqual([
      { input_data: "test" },
      { foo: "foobar", bar: { input_data: "test" } },
    ]);
  });

  it("test_variable_sampling: a JSONata state reads a variable a JSONPath state assigned, before reassigning it", async () => {
    const run = await runOnce(
      {
        StartAt: "JSONPathState",
        States: {
          JSONPathState: { QueryLanguage: "JSONPath", Type: "Pass", Assign: { theAnswer: 42 }, Next: "JSONataState" },
          JSONataState: { QueryLanguage: "JSONata", Type: "Pass", Assign: { theAnswer: 18, oldAnswer: "{% $theAnswer %}" }, Output: "{% { 'theAnswer': $theAnswer } %}", Next: "Read" },
          Read: { QueryLanguage: "JSONata", Type: "Pass", Output: "{% { 'theAnswer': $theAnswer, 'oldAnswer': $oldAnswer } %}", End: true },
        },
      },
      {},
    );
    expect(run.output).toEqual({ theAnswer: 18, oldAnswer: 42 });
  });

  it("test_lambda_task_resource_data_flow[TASK_LAMBDA_SDK_...]: lambda:invoke succeeds with AWS's result shape", async () => {
    const run = await runOnce(
      {
        // A JSONata machine may not hold JSONPath states; a JSONPath machine may hold JSONata ones.
        StartAt: "JsonataState",
        States: {
          JsonataState: {
            QueryLanguage: "JSONata",
            Type: "Task",
            Resource: "arn:aws:states:::lambda:invoke",
            Arguments: { FunctionName: "arn:aws:lambda:us-east-1:123456789012:function:f", Payload: { foo: "foo-1" } },
            Output: { results: "{% $states.result %}" },
            Next: "JsonPathState",
          },
          JsonPathState: { QueryLanguage: "JSONPath", Type: "Pass", End: true },
        },
      },
      {},
      { integrations: { lambda: async (req) => ({ StatusCode: 200, Payload: req.Payload, ExecutedVersion: "$LATEST" }) } },
    );
    const result = (run.output as { results: Record<string, unknown> }).results;
    expect(Object.keys(result).sort()).toEqual(["ExecutedVersion", "Payload", "SdkHttpMetadata", "SdkResponseMetadata", "StatusCode"]);
    expect(result).toMatchObject({ ExecutedVersion: "$LATEST", Payload: { foo: "foo-1" }, StatusCode: 200, SdkHttpMetadata: { HttpStatusCode: 200 } });
  });
});

describe("Recorded on AWS: ToleratedFailure* on an inline map", () => {
  // evaluate_jsonata/test_base_evaluate_expressions.snapshot.json › test_base_map[TOLERATED_FAILURE_COUNT] and
  // [TOLERATED_FAILURE_PERCENTAGE] (2025-07-22): an INLINE map (no ProcessorConfig) of a JSONata machine with the
  // field given as the expression {% $variable := 1 %} is accepted and runs.
  it.each(["ToleratedFailureCount", "ToleratedFailurePercentage"])("accepts %s on an inline map and runs it", async (field) => {
    const run = await runOnce(
      {
        QueryLanguage: "JSONata",
        StartAt: "Start",
        States: {
          Start: {
            Type: "Map",
            Items: [1],
            MaxConcurrency: 1,
            ItemProcessor: { StartAt: "Process", States: { Process: { Type: "Pass", End: true } } },
            [field]: "{% $variable := 1 %}",
            End: true,
          },
        },
      },
      {},
    );
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual([1]);
    expect(types(run)).toEqual([
      "ExecutionStarted", "MapStateEntered", "MapStateStarted", "MapIterationStarted", "PassStateEntered", "PassStateExited",
      "MapIterationSucceeded", "MapStateSucceeded", "MapStateExited", "ExecutionSucceeded",
    ]);
  });
});
