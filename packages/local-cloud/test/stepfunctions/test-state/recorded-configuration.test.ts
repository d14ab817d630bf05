/**
 * TestState's `stateConfiguration` and `context` as recorded on AWS: RETRIABLE and its backoff, Map failure counts
 * held against the tolerance, errors mocked for a Map, a given context object, and validation errors. Each case cites
 * the AWS-validated LocalStack snapshot it follows (github.com/localstack/localstack, Apache-2.0,
 * tests/aws/services/stepfunctions/v2/test_state/<file>.snapshot.json); definitions rebuilt from its templates.
 */
import { GENERATED_CONTEXT, LEVELS, rejection, run } from "./support";

const DEFAULT_INPUT = JSON.stringify({ Values: ["first", "second", "third"] });
const VALUES = { Values: ["first", "second", "third"] };
const MOCK_ERROR = { errorOutput: { error: "MockException", cause: "Mock the cause of the error." } };
const processor = (state: object) => ({ ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" }, StartAt: "TestState", States: { TestState: { ...state, End: true } } });
const LAMBDA_ARN = { Type: "Task", Resource: "arn:aws:lambda:your-region:your-account-id:function:yourHelloWorldFunction" };
const MAP_BASE = { Type: "Map", QueryLanguage: "JSONata", Items: "{% $states.input.Values %}", End: true };
const MAPS = {
  BASE_MAP_STATE: { ...MAP_BASE, ItemProcessor: processor({ Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "foo", Payload: "bar" } }), Output: "{% $states %}" },
  BASE_MAP_STATE_CATCH: {
    ...MAP_BASE,
    ItemProcessor: processor(LAMBDA_ARN),
    Catch: [
      { ErrorEquals: ["MockException"], Output: "{% $states %}", Next: "HandleMockError" },
      { ErrorEquals: ["States.ExceedToleratedFailureThreshold"], Output: "{% $states %}", Next: "HandleThreshold" },
    ],
    ToleratedFailureCount: 1,
  },
  BASE_MAP_STATE_RETRY: {
    ...MAP_BASE,
    ItemProcessor: processor(LAMBDA_ARN),
    Retry: [{ ErrorEquals: ["MockException"], MaxAttempts: 3 }, { ErrorEquals: ["States.ExceedToleratedFailureThreshold"], MaxAttempts: 2 }],
    ToleratedFailureCount: 1,
  },
};
const ROLE = "arn:aws:iam::111111111111:role/r";
const EXCEEDED = { error: "States.ExceedToleratedFailureThreshold", cause: "The specified tolerated failure threshold was exceeded" };

describe("TestState, recorded on AWS: stateConfiguration", () => {
  // test_state_configuration › test_state_configuration_retrier_retry_count[DEBUG|TRACE] (2025-11-22)
  it.each(["DEBUG", "TRACE"] as const)("%s: RETRIABLE while the retrier has attempts left, with the next backoff; FAILED once spent", async (inspectionLevel) => {
    const task = { QueryLanguage: "JSONata", Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "foo", Payload: "bar" }, Retry: [{ ErrorEquals: ["MockException"], IntervalSeconds: 1, MaxAttempts: 5, BackoffRate: 2.0 }], End: true };
    const at = (retrierRetryCount: number) => run({ definition: task, input: DEFAULT_INPUT, stateConfiguration: { retrierRetryCount }, inspectionLevel, mock: MOCK_ERROR });
    const common = { afterArguments: { FunctionName: "foo", Payload: "bar" }, input: VALUES };
    expect(await at(4)).toEqual({ ...MOCK_ERROR.errorOutput, inspectionData: { ...common, errorDetails: { retryBackoffIntervalSeconds: 16, retryIndex: 0 } }, status: "RETRIABLE" });
    expect(await at(5)).toEqual({ ...MOCK_ERROR.errorOutput, inspectionData: { ...common, errorDetails: { retryIndex: 0 } }, status: "FAILED" });
  });

  // test_state_configuration › test_map_state_failure_count[<level>-<template>] (2025-11-13)
  describe.each(LEVELS)("%s: failed Map iterations against the tolerance", (inspectionLevel) => {
    const at = (definition: object, mapIterationFailureCount: number, result: unknown[]) =>
      run({ definition, roleArn: ROLE, input: DEFAULT_INPUT, stateConfiguration: { mapIterationFailureCount }, inspectionLevel, mock: { result: JSON.stringify(result) } });
    const inspect = (data: object) => (inspectionLevel === "INFO" ? {} : { inspectionData: { input: VALUES, maxConcurrency: 0, ...data } });
    it("a Map that tolerates none ignores the count", async () => {
      for (const [count, result] of [[0, [1, 1, 1]], [2, [0, 0, 1]]] as const) {
        expect(await at(MAPS.BASE_MAP_STATE, count, [...result])).toEqual({ output: { input: VALUES, context: GENERATED_CONTEXT(VALUES, 0, ROLE), result }, status: "SUCCEEDED", ...inspect({}) });
      }
    });
    it("beyond the tolerance: States.ExceedToleratedFailureThreshold, caught by the Map's Catch", async () => {
      expect(await at(MAPS.BASE_MAP_STATE_CATCH, 0, [1, 1, 1])).toEqual({ output: [1, 1, 1], status: "SUCCEEDED", ...inspect({ toleratedFailureCount: 1 }) });
      expect(await at(MAPS.BASE_MAP_STATE_CATCH, 2, [0, 0, 1])).toEqual({
        ...EXCEEDED,
        nextState: "HandleThreshold",
        output: { input: VALUES, context: GENERATED_CONTEXT(VALUES, 0, ROLE), errorOutput: { Error: EXCEEDED.error, Cause: EXCEEDED.cause } },
        status: "CAUGHT_ERROR",
        ...inspect({ toleratedFailureCount: 1, errorDetails: { catchIndex: 1 } }),
      });
    });
    it("beyond the tolerance with a Retry for it: RETRIABLE", async () => {
      expect(await at(MAPS.BASE_MAP_STATE_RETRY, 0, [1, 1, 1])).toEqual({ output: [1, 1, 1], status: "SUCCEEDED", ...inspect({ toleratedFailureCount: 1 }) });
      expect(await at(MAPS.BASE_MAP_STATE_RETRY, 2, [0, 0, 1])).toEqual({ ...EXCEEDED, status: "RETRIABLE", ...inspect({ toleratedFailureCount: 1, errorDetails: { retryBackoffIntervalSeconds: 1, retryIndex: 1 } }) });
    });
  });

  // test_state_configuration › test_map_state_error_caused_by_state[<level>] (2025-11-13) and
  // test_state_configuration_map_iteration_failure_count_with_state_error[<level>] (2025-11-13)
  it.each(LEVELS)("%s: an error mocked for a Map fails it, whatever the failure count", async (inspectionLevel) => {
    for (const config of [{ errorCausedByState: "TestState" }, { mapIterationFailureCount: 0, errorCausedByState: "TestState" }, { mapIterationFailureCount: 2, errorCausedByState: "TestState" }]) {
      const got = await run({ definition: MAPS.BASE_MAP_STATE, input: DEFAULT_INPUT, stateConfiguration: config, inspectionLevel, mock: MOCK_ERROR });
      expect(got).toEqual({ ...MOCK_ERROR.errorOutput, status: "FAILED", ...(inspectionLevel === "INFO" ? {} : { inspectionData: { input: VALUES, maxConcurrency: 0 } }) });
    }
  });

  // test_state_configuration › test_state_machine_with_state_error[<level>] (2025-11-13): a JSONPath Map in a machine.
  it.each(LEVELS)("%s: a JSONPath Map addressed by stateName reports afterInputPath and afterItemsPath", async (inspectionLevel) => {
    const machine = { StartAt: "State0", States: { State0: { Type: "Map", ItemsPath: "$.Values", ItemProcessor: { ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" }, StartAt: "HandleItem", States: { HandleItem: { Type: "Pass", End: true } } }, ToleratedFailureCount: 2, End: true } } };
    for (const mapIterationFailureCount of [0, 2]) {
      const got = await run({ definition: machine, stateName: "State0", input: DEFAULT_INPUT, stateConfiguration: { mapIterationFailureCount, errorCausedByState: "HandleItem" }, inspectionLevel, mock: { errorOutput: { error: "MockException", cause: "Mock the error cause." } } });
      const inspection = { afterInputPath: VALUES, afterItemsPath: VALUES.Values, input: VALUES, maxConcurrency: 0, toleratedFailureCount: 2 };
      expect(got).toEqual({ cause: "Mock the error cause.", error: "MockException", status: "FAILED", ...(inspectionLevel === "INFO" ? {} : { inspectionData: inspection }) });
    }
  });
});

describe("TestState, recorded on AWS: the context object", () => {
  const CONTEXT = {
    Execution: { Id: "arn:aws:states:::execution:MyStateMachine:execution-name-12345", Input: { "input-value": 0, message: "test data", values: ["charizard", "pikachu", "bulbasaur"] }, Name: "execution-name-12345", RoleArn: "arn:aws:iam:::role/StepFunctionsRole", StartTime: "2025-01-15T10:30:00.000Z" },
    State: { EnteredTime: "2025-01-15T10:30:01.500Z", Name: "MyTaskState", RetryCount: 0 },
    StateMachine: { Id: "arn:aws:states:::stateMachine:MyStateMachine", Name: "MyStateMachine" },
  };
  const TASK = (selected: string) => ({ Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { "FunctionName.$": "$.FunctionName", Payload: { "Input.$": "$" } }, ResultSelector: { "LambdaOutput.$": "$", "ContextObjectValue.$": selected }, End: true });
  const TASK_INPUT = { FunctionName: "lambda_function_name", Payload: { "input-value": 0 } };
  const POKEMON = { pokemon: ["charizard", "pikachu", "bulbasaur"] };

  // test_state_context_object › test_state_task_context_object[ALL|EXECUTION_INPUT|EXECUTION_INPUT_VALUES] (2025-12-03)
  it.each([
    ["$$", CONTEXT],
    ["$$.Execution.Input", CONTEXT.Execution.Input],
    ["$$.Execution.Input.values", CONTEXT.Execution.Input.values],
  ])("a Task reads the given context at %s", async (path, selected) => {
    const got = await run({ definition: TASK(path), input: JSON.stringify(TASK_INPUT), inspectionLevel: "TRACE", context: JSON.stringify(CONTEXT), mock: { result: JSON.stringify(POKEMON) } });
    const output = { LambdaOutput: POKEMON, ContextObjectValue: selected };
    expect(got).toEqual({
      inspectionData: { afterInputPath: TASK_INPUT, afterParameters: { FunctionName: "lambda_function_name", Payload: { Input: TASK_INPUT } }, afterResultPath: output, afterResultSelector: output, input: TASK_INPUT, result: POKEMON },
      output,
      status: "SUCCEEDED",
    });
  });

  // test_state_context_object › test_state_context_object_edge_cases[EMPTY_OBJECTS|EMPTY] (2025-12-03)
  it.each([[{ Execution: {}, State: {}, StateMachine: {} }], [{}]])("a given context replaces the whole object: %j", async (context) => {
    const got = await run({ definition: TASK("$$"), input: JSON.stringify(TASK_INPUT), inspectionLevel: "TRACE", context: JSON.stringify(context), mock: { result: '{"pokemon":"pikachu"}' } });
    expect(got.output).toEqual({ LambdaOutput: { pokemon: "pikachu" }, ContextObjectValue: context });
  });

  // test_state_context_object › test_state_wait_task_context_object (2025-12-09): Task.Token for .waitForTaskToken.
  it("gives a callback Task the given Task.Token", async () => {
    const state = { Type: "Task", Resource: "arn:aws:states:::sqs:sendMessage.waitForTaskToken", Parameters: { QueueUrl: "https://sqs.us-east-1.amazonaws.com/111111111111/test-queue", MessageBody: { Message: "Hello from Step Functions!", "TaskToken.$": "$$.Task.Token" } }, ResultPath: "$.SQS", Next: "NEXT_STATE" };
    const got = await run({ definition: state, inspectionLevel: "TRACE", context: JSON.stringify({ ...CONTEXT, Task: { Token: "abcd123" } }), mock: { result: JSON.stringify(POKEMON) } });
    expect(got).toEqual({
      inspectionData: { afterInputPath: {}, afterParameters: { QueueUrl: "https://sqs.us-east-1.amazonaws.com/111111111111/test-queue", MessageBody: { Message: "Hello from Step Functions!", TaskToken: "abcd123" } }, afterResultPath: { SQS: POKEMON }, afterResultSelector: POKEMON, input: {}, result: POKEMON },
      nextState: "NEXT_STATE",
      output: { SQS: POKEMON },
      status: "SUCCEEDED",
    });
  });

  // test_state_context_object › test_state_map_context_object[ALL|EXECUTION_INPUT|EXECUTION_INPUT_VALUES] (2025-12-03)
  it("a mocked JSONPath Map takes its items from the given context, or fails naming the path", async () => {
    const map = (itemsPath: string) => ({ Type: "Map", ItemsPath: itemsPath, MaxConcurrency: 1, ItemProcessor: { StartAt: "HandleItem", States: { HandleItem: { Type: "Pass", End: true } } }, End: true });
    const at = (itemsPath: string) => run({ definition: map(itemsPath), input: '["fire","electricity","grass"]', inspectionLevel: "TRACE", context: JSON.stringify(CONTEXT), mock: { result: '["CHARIZARD","PIKACHU","BULBASAUR"]' } });
    const input = ["fire", "electricity", "grass"];
    expect(await at("$$")).toEqual({ cause: 'Reference path "$" must point to array.', error: "States.Runtime", inspectionData: { afterInputPath: input, input }, status: "FAILED" });
    expect(await at("$$.Execution.Input")).toEqual({ cause: 'Reference path "$.Execution.Input" must point to array.', error: "States.Runtime", inspectionData: { afterInputPath: input, input }, status: "FAILED" });
    const upper = ["CHARIZARD", "PIKACHU", "BULBASAUR"];
    expect(await at("$$.Execution.Input.values")).toEqual({
      inspectionData: { afterInputPath: input, afterItemsPath: CONTEXT.Execution.Input.values, afterResultPath: upper, afterResultSelector: upper, input, maxConcurrency: 1 },
      output: upper,
      status: "SUCCEEDED",
    });
  });

  // test_state_context_object › test_state_context_object_validation_failures[...] and _invalid_states[...] (2025-12-03)
  it.each([
    [{ Execution: { Id: 1 } }, "Invalid Context object provided: Execution.Id must be a string"],
    [{ Map: {} }, "Invalid Context object provided: 'Map' field is not supported when mocking a Context object"],
    [{ Execution: { pokemon: "squirtle" } }, "Invalid Context object provided: Field 'pokemon' is not allowed"],
    [{ Pokedex: {} }, "Invalid Context object provided: Field 'Pokedex' is not allowed"],
    [{ ...CONTEXT, Task: { Token: "abcd123" } }, "Invalid Context object provided: Context object contains 'Task' when state is not a Task state with a '.sync' or '.waitForTaskToken' service integration pattern"],
  ])("refuses the context %j", async (context, message) => {
    expect(await rejection({ definition: TASK("$$"), input: '["fire"]', inspectionLevel: "TRACE", context: JSON.stringify(context), mock: { result: '{"pokemon":[]}' } })).toEqual({ code: "ValidationException", message });
  });
});

describe("TestState, recorded on AWS: addressing a state", () => {
  // test_test_state_machine_scenarios › test_base_state_name_validation_failures[dne|invalid] (2025-12-03)
  it.each(["dne", '"invalid"'])("refuses stateName %s, which the machine lacks", async (stateName) => {
    expect(await rejection({ definition: { StartAt: "State0", States: { State0: { Type: "Pass", End: true } } }, stateName, input: '{"Value":"HelloWorld"}' })).toEqual({ code: "ValidationException", message: "State not found in definition" });
  });

  // test_test_state_machine_scenarios › test_state_name_invalid_state_definition (2025-12-04)
  it("validates the whole machine first, naming the invalid state's path", async () => {
    const machine = { StartAt: "ExistingButInvalidState", States: { ExistingButInvalidState: { Type: "TypeThatDoesNotExist", End: true } } };
    expect(await rejection({ definition: machine, stateName: "ExistingButInvalidState" })).toEqual({
      code: "InvalidDefinition",
      message: "Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: The field 'Type' should have one of these values: [Task, Wait, Pass, Succeed, Fail, Choice, Parallel, Map] at /States/ExistingButInvalidState/Type'",
    });
  });
});
