/**
 * TestState as recorded on AWS: outputs, statuses, next states and inspectionData at each level. Every expectation
 * cites the AWS-validated LocalStack snapshot it follows (github.com/localstack/localstack, Apache-2.0,
 * tests/aws/services/stepfunctions/v2/test_state/<file>.snapshot.json; recording dates in the snapshots). The
 * definitions are rebuilt from the snapshots' templates; no code is copied.
 */
import { GENERATED_CONTEXT, HELLO_WORLD, LEVELS, run } from "./support";

const NESTED = { initialData: { fieldFromInput: "value from input", otherField: "other" }, unrelatedData: { someOtherField: 1234 } };
const IO_PASS = { Type: "Pass", InputPath: "$.initialData", Parameters: { staticValue: "some value", "inputValue.$": "$.fieldFromInput" }, ResultPath: "$.modifiedData", End: true };
const RESULT = { resultKey: "result value" };
const CHOICE = {
  Type: "Choice",
  Choices: [
    { Not: { Variable: "$.type", StringEquals: "Private" }, Next: "Public" },
    { Variable: "$.value", NumericEquals: 0, Next: "ValueIsZero" },
    { And: [{ Variable: "$.value", NumericGreaterThanEquals: 20 }, { Variable: "$.value", NumericLessThan: 30 }], Next: "ValueInTwenties" },
  ],
  Default: "DefaultState",
};
const FAIL_CAUSE = "This state machines raises a 'SomeFailure' failure.";

// test_test_state_scenarios › test_base_inspection_level_{info,debug,trace}[<template>] (2025-11-14): DEBUG and
// TRACE are the same answer for states without HTTP; INFO is the same without inspectionData.
const BASE: Array<[string, object, unknown, object, Record<string, unknown>]> = [
  ["BASE_PASS_STATE", { Type: "Pass", End: true }, { Value: "HelloWorld" }, { output: { Value: "HelloWorld" }, status: "SUCCEEDED" }, { input: { Value: "HelloWorld" }, afterInputPath: { Value: "HelloWorld" }, afterParameters: { Value: "HelloWorld" }, afterResultSelector: { Value: "HelloWorld" }, afterResultPath: { Value: "HelloWorld" } }],
  ["BASE_RESULT_PASS_STATE", { Type: "Pass", Result: RESULT, End: true }, { Value: "HelloWorld" }, { output: RESULT, status: "SUCCEEDED" }, { input: { Value: "HelloWorld" }, result: RESULT, afterResultSelector: RESULT, afterResultPath: RESULT }],
  ["IO_PASS_STATE", IO_PASS, NESTED, { output: { ...NESTED, modifiedData: { staticValue: "some value", inputValue: "value from input" } }, status: "SUCCEEDED" }, { input: NESTED, afterInputPath: NESTED.initialData, afterParameters: { staticValue: "some value", inputValue: "value from input" }, afterResultSelector: { staticValue: "some value", inputValue: "value from input" }, afterResultPath: { ...NESTED, modifiedData: { staticValue: "some value", inputValue: "value from input" } } }],
  // With Result, AWS reports neither afterInputPath nor afterParameters, though the state has both fields.
  ["IO_RESULT_PASS_STATE", { ...IO_PASS, Result: RESULT }, NESTED, { output: { ...NESTED, modifiedData: RESULT }, status: "SUCCEEDED" }, { input: NESTED, result: RESULT, afterResultSelector: RESULT, afterResultPath: { ...NESTED, modifiedData: RESULT } }],
  ["BASE_FAIL_STATE", { Type: "Fail", Error: "SomeFailure", Cause: FAIL_CAUSE }, { Value: "HelloWorld" }, { error: "SomeFailure", cause: FAIL_CAUSE, status: "FAILED" }, { input: { Value: "HelloWorld" }, afterInputPath: { Value: "HelloWorld" } }],
  ["BASE_SUCCEED_STATE", { Type: "Succeed" }, { Value: "HelloWorld" }, { output: { Value: "HelloWorld" }, status: "SUCCEEDED" }, { input: { Value: "HelloWorld" }, afterInputPath: { Value: "HelloWorld" } }],
  ["BASE_CHOICE_STATE", CHOICE, { type: "Private", value: 22 }, { nextState: "ValueInTwenties", output: { type: "Private", value: 22 }, status: "SUCCEEDED" }, { input: { type: "Private", value: 22 }, afterInputPath: { type: "Private", value: 22 } }],
];

describe("TestState, recorded on AWS: a lone state at each inspection level", () => {
  describe.each(BASE)("%s", (_id, definition, input, answer, inspection) => {
    it.each(LEVELS)("%s", async (inspectionLevel) => {
      const got = await run({ definition, input: JSON.stringify(input), inspectionLevel });
      expect(got).toEqual(inspectionLevel === "INFO" ? answer : { ...answer, inspectionData: inspection });
    });
  });

  // test_test_state_scenarios › test_state_task_catch_error[INFO|DEBUG|TRACE] (2025-11-21)
  const CATCH_TASK = {
    QueryLanguage: "JSONata",
    Type: "Task",
    Resource: "arn:aws:states:::lambda:invoke",
    Arguments: { FunctionName: "foo", Payload: "bar" },
    Catch: [
      { ErrorEquals: ["MockException"], Output: "{% $states %}", Next: "HandleMockError" },
      { ErrorEquals: ["States.TaskFailed"], Output: "{% $states %}", Next: "HandleThreshold" },
    ],
    End: true,
  };
  it.each(LEVELS.flatMap((level) => [[level, "MockException", "Mock the cause of the error.", "HandleMockError", 0], [level, "States.TaskFailed", "The task failed.", "HandleThreshold", 1]] as const))(
    "a JSONata Task's mocked error caught by a Catch (%s, %s): CAUGHT_ERROR with the catcher's Next and output",
    async (inspectionLevel, error, cause, next, catchIndex) => {
      const got = await run({ definition: CATCH_TASK, input: HELLO_WORLD, inspectionLevel, mock: { errorOutput: { error, cause } } });
      const answer = {
        cause,
        error,
        nextState: next,
        output: { input: { Value: "HelloWorld" }, context: GENERATED_CONTEXT({ Value: "HelloWorld" }, 0), errorOutput: { Error: error, Cause: cause } },
        status: "CAUGHT_ERROR",
      };
      const inspection = { afterArguments: { FunctionName: "foo", Payload: "bar" }, errorDetails: { catchIndex }, input: { Value: "HelloWorld" } };
      expect(got).toEqual(inspectionLevel === "INFO" ? answer : { ...answer, inspectionData: inspection });
    },
  );

  // test_test_state_scenarios › test_base_map_state_inspect[<field>-<level>] (2025-11-14): a JSONata Map answered by
  // its mock reports its input and limits; an expression evaluates to its value.
  const MAP = {
    Type: "Map",
    QueryLanguage: "JSONata",
    Items: "{% $states.input.Values %}",
    ItemProcessor: {
      ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" },
      StartAt: "TestState",
      States: { TestState: { Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "foo", Payload: "bar" }, End: true } },
    },
    Output: "{% $states %}",
    End: true,
  };
  const LIMITS: Array<[string, Record<string, unknown>]> = [
    ["MaxConcurrency", { maxConcurrency: 1 }],
    ["ToleratedFailurePercentage", { maxConcurrency: 0, toleratedFailurePercentage: 1 }],
    ["ToleratedFailureCount", { maxConcurrency: 0, toleratedFailureCount: 1 }],
  ];
  it.each(LIMITS.flatMap(([field, limits]) => LEVELS.map((level) => [field, level, limits] as const)))(
    "a mocked JSONata Map with %s as an expression (%s)",
    async (field, inspectionLevel, limits) => {
      const got = await run({ definition: { ...MAP, [field]: "{% $variable := 1 %}" }, input: JSON.stringify({ Values: [1, 2, 3] }), inspectionLevel, mock: { result: "[1,1,1]" } });
      const answer = { output: { input: { Values: [1, 2, 3] }, context: GENERATED_CONTEXT({ Values: [1, 2, 3] }, 0), result: [1, 1, 1] }, status: "SUCCEEDED" };
      expect(got).toEqual(inspectionLevel === "INFO" ? answer : { ...answer, inspectionData: { input: { Values: [1, 2, 3] }, ...limits } });
    },
  );
});

describe("TestState, recorded on AWS: a state of a whole machine (stateName)", () => {
  // test_test_state_machine_scenarios › test_base_state_name[<level>-<template>] (2025-12-03), including a state nested
  // in a Map's ItemProcessor.
  const PASS_MACHINE = { StartAt: "State0", States: { State0: { Type: "Pass", End: true } } };
  const FAIL_MACHINE = { QueryLanguage: "JSONata", StartAt: "State0", States: { State0: { Type: "Fail", Error: "SomeFailure", Cause: FAIL_CAUSE } } };
  const MAP_MACHINE = {
    StartAt: "State0",
    States: { State0: { Type: "Map", ItemsPath: "$.Values", ItemProcessor: { ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" }, StartAt: "HandleItem", States: { HandleItem: { Type: "Pass", End: true } } }, ToleratedFailureCount: 2, End: true } },
  };
  const hello = { Value: "HelloWorld" };
  const jsonPathPass = { input: hello, afterInputPath: hello, afterParameters: hello, afterResultSelector: hello, afterResultPath: hello };
  it.each(LEVELS.flatMap((level) => [[level, "a Pass", PASS_MACHINE, "State0"], [level, "a Pass inside a Map", MAP_MACHINE, "HandleItem"]] as const))("%s: %s", async (inspectionLevel, _label, definition, stateName) => {
    const got = await run({ definition, stateName, input: HELLO_WORLD, inspectionLevel });
    expect(got).toEqual({ output: hello, status: "SUCCEEDED", ...(inspectionLevel === "INFO" ? {} : { inspectionData: jsonPathPass }) });
  });
  it.each(LEVELS)("%s: a JSONata Fail", async (inspectionLevel) => {
    const got = await run({ definition: FAIL_MACHINE, stateName: "State0", input: HELLO_WORLD, inspectionLevel });
    expect(got).toEqual({ cause: FAIL_CAUSE, error: "SomeFailure", status: "FAILED", ...(inspectionLevel === "INFO" ? {} : { inspectionData: { input: hello } }) });
  });

  // test_test_state_machine_scenarios › test_base_state_name_multi_state[<level>-<state>] (2025-12-03)
  const MULTI = { QueryLanguage: "JSONata", StartAt: "State0", States: { State0: { Type: "Pass", Next: "State1" }, State1: { Type: "Fail", Error: "SomeFailure", Cause: FAIL_CAUSE } } };
  it.each(LEVELS)("%s: each state of a two-state JSONata machine, State0 handing over to State1", async (inspectionLevel) => {
    const inspection = inspectionLevel === "INFO" ? {} : { inspectionData: { input: hello } };
    expect(await run({ definition: MULTI, stateName: "State0", input: HELLO_WORLD, inspectionLevel })).toEqual({ nextState: "State1", output: hello, status: "SUCCEEDED", ...inspection });
    expect(await run({ definition: MULTI, stateName: "State1", input: HELLO_WORLD, inspectionLevel })).toEqual({ cause: FAIL_CAUSE, error: "SomeFailure", status: "FAILED", ...inspection });
  });

  // test_test_state_scenarios › test_localstack_blogpost_scenario (2025-12-02): a JSONata approval workflow at TRACE.
  it("walks an approval workflow state by state, a mocked API Gateway Task included", async () => {
    const machine = {
      QueryLanguage: "JSONata",
      StartAt: "Approval Required",
      States: {
        "Approval Required": { Type: "Choice", Choices: [{ Condition: "{% $states.input.cost < 10 %}", Next: "Purchase Approved" }], Default: "Ask for Approval" },
        "Purchase Approved": { Type: "Succeed" },
        "Ask for Approval": {
          Type: "Task",
          Resource: "arn:aws:states:::apigateway:invoke",
          Arguments: { Method: "POST", ApiEndpoint: "example.execute-api.us-east-1.amazonaws.com", Path: "/approval", RequestBody: { cost: "{% $states.input.cost %}", dept_id: "12345678" }, AuthType: "NO_AUTH" },
          Retry: [{ ErrorEquals: ["States.ALL"], BackoffRate: 2, IntervalSeconds: 1, MaxAttempts: 3 }],
          Next: "Check Approval",
          Output: { approval: "{% $states.result.approval %}", approval_code: "2387462", approved_by: "Mary" },
        },
        "Check Approval": { Type: "Choice", Choices: [{ Next: "Purchase Approved", Condition: "{% $states.input.approval %}" }], Default: "Not Approved" },
        "Not Approved": { Type: "Fail" },
      },
    };
    const at = (stateName: string, input: unknown, mock?: { result: string }) => run({ definition: machine, stateName, input: JSON.stringify(input), inspectionLevel: "TRACE", mock });
    expect(await at("Approval Required", { cost: 9 })).toEqual({ inspectionData: { input: { cost: 9 } }, nextState: "Purchase Approved", output: { cost: 9 }, status: "SUCCEEDED" });
    expect(await at("Approval Required", { cost: 10 })).toEqual({ inspectionData: { input: { cost: 10 } }, nextState: "Ask for Approval", output: { cost: 10 }, status: "SUCCEEDED" });
    const approved = { approval: true, approval_code: "2387462", approved_by: "Mary" };
    expect(await at("Ask for Approval", { cost: 10 }, { result: '{"approval": true }' })).toEqual({
      inspectionData: {
        afterArguments: { Method: "POST", ApiEndpoint: "example.execute-api.us-east-1.amazonaws.com", Path: "/approval", RequestBody: { cost: 10, dept_id: "12345678" }, AuthType: "NO_AUTH" },
        input: { cost: 10 },
        result: { approval: true },
      },
      nextState: "Check Approval",
      output: approved,
      status: "SUCCEEDED",
    });
    expect(await at("Check Approval", approved)).toEqual({ inspectionData: { input: approved }, nextState: "Purchase Approved", output: approved, status: "SUCCEEDED" });
    expect(await at("Check Approval", { approval: false })).toEqual({ inspectionData: { input: { approval: false } }, nextState: "Not Approved", output: { approval: false }, status: "SUCCEEDED" });
  });

  // test_test_state_scenarios › test_state_with_variables[base_expressions|empty_variables] (2026-02-24): variables
  // given with the test are in scope and reported; a state machine without a role reports RoleArn null.
  it("reads variables given with the test, and reports them", async () => {
    const machine = {
      StartAt: "Init",
      States: {
        Init: { Type: "Pass", Assign: { "var_input_value.$": "$.input_value", var_constant_1: 1 }, Next: "State0" },
        State0: {
          QueryLanguage: "JSONata",
          Type: "Pass",
          Output: { ja_states_context: "{% $states.context %}", ja_states_input: "{% $states.input %}", ja_var_access: "{% $var_input_value %}", ja_expr: "{% $sum($states.input.input_values) + $var_constant_1 %}" },
          End: true,
        },
      },
    };
    const input = { input_values: [1, 2, 3] };
    const variables = { var_input_value: "test_value", var_constant_1: 10 };
    const got = await run({ definition: machine, stateName: "State0", input: JSON.stringify(input), variables: JSON.stringify(variables), inspectionLevel: "TRACE" });
    expect(got).toEqual({
      inspectionData: { input, variables },
      output: { ja_states_context: GENERATED_CONTEXT(input), ja_states_input: input, ja_var_access: "test_value", ja_expr: 16 },
      status: "SUCCEEDED",
    });
    expect(Object.keys((got.output as { ja_states_context: { Execution: object } }).ja_states_context.Execution)).toEqual(["Id", "Input", "Name", "RoleArn", "StartTime"]);
    const empty = await run({ definition: { StartAt: "State0", States: { State0: { QueryLanguage: "JSONata", Type: "Pass", Output: { constant_jp_input: "$", constant_lst: [null, 0.1, " {% states.input %} "] }, End: true } } }, stateName: "State0", input: JSON.stringify(input), variables: "{}", inspectionLevel: "TRACE" });
    expect(empty).toEqual({ inspectionData: { input }, output: { constant_jp_input: "$", constant_lst: [null, 0.1, " {% states.input %} "] }, status: "SUCCEEDED" });
  });
});
