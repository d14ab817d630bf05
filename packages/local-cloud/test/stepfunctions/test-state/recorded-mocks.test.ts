/**
 * TestState's mocks as recorded on AWS: which states take one, what a mocked result must be, how
 * `fieldValidationMode` holds it to the API's output shape, and mocked Parallel states. Each case cites the
 * AWS-validated LocalStack snapshot it follows (github.com/localstack/localstack, Apache-2.0,
 * tests/aws/services/stepfunctions/v2/test_state/<file>.snapshot.json); definitions rebuilt from its templates.
 */
import { LEVELS, rejection, run } from "./support";

const PASS = { Type: "Pass", End: true };
const LAMBDA_TASK = { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { "FunctionName.$": "$.FunctionName", "Payload.$": "$.Payload" }, End: true };
const MAP = {
  Type: "Map",
  QueryLanguage: "JSONata",
  Items: "{% $states.input.Values %}",
  ItemProcessor: { ProcessorConfig: { Mode: "DISTRIBUTED", ExecutionType: "STANDARD" }, StartAt: "TestState", States: { TestState: { Type: "Pass", End: true } } },
  Output: "{% $states %}",
  End: true,
};
const branch = (name: string) => ({ StartAt: name, States: { [name]: { Type: "Pass", End: true } } });
const PARALLEL = { Type: "Parallel", Branches: [branch("B1"), branch("B2")], End: true };
const BRANCH_RESULTS = [{ branch1: "result" }, { branch2: "result" }];

describe("TestState, recorded on AWS: which states take a mock", () => {
  // test_state_mock_validation › test_state_type_does_not_accept_mock[<mock>-<state>] (2025-12-10)
  it.each([
    ["Pass", PASS],
    ["Fail", { Type: "Fail", Error: "SomeFailure", Cause: "c" }],
    ["Succeed", { Type: "Succeed" }],
  ])("refuses a mock for a %s state", async (type, definition) => {
    for (const mock of [{ result: JSON.stringify({ mock: "the unmockable" }) }, { errorOutput: { error: "Error", cause: "Cause" } }]) {
      expect(await rejection({ definition, inspectionLevel: "TRACE", mock })).toEqual({ code: "ValidationException", message: `State type '${type}' is not supported when a mock is specified` });
    }
  });

  // test_state_mock_validation › test_state_type_requires_mock[MapState|MapTaskState|ParallelState] (2025-12-10, 2026-02-24)
  it.each([["Map", MAP], ["Parallel", PARALLEL]])("refuses a %s state without a mock, as an InvalidDefinition", async (_type, definition) => {
    expect(await rejection({ definition, inspectionLevel: "TRACE" })).toEqual({
      code: "InvalidDefinition",
      message: "TestState API does not support Map or Parallel states. Supported state types include: [Task, Wait, Pass, Succeed, Fail, Choice]",
    });
  });

  it.each([
    // test_state_mock_validation › test_both_mock_result_and_mock_error_output_are_set (2025-12-10)
    ["both a result and an error", { definition: LAMBDA_TASK, mock: { result: '{"mock":"response"}', errorOutput: { error: "Error", cause: "Cause" } } }, "A test mock should have only one of the following fields: [result, errorOutput]."],
    // test_state_mock_validation › test_reveal_secrets_is_true_and_mock_result_is_set (2025-12-10)
    ["revealSecrets with a mock", { definition: LAMBDA_TASK, mock: { result: '{"mock":"response"}' }, revealSecrets: true }, "TestState does not support RevealSecrets when a mock is specified."],
    // test_test_state_mock_scenarios › test_base_lambda_service_task_mock_is_not_json_string (2025-12-03): even with NONE
    ["a result that is not JSON", { definition: LAMBDA_TASK, mock: { result: "not JSON string", fieldValidationMode: "NONE" as const } }, "Mocked result must be valid JSON"],
    // test_state_mock_validation › test_mock_result_is_not_array_on_map_state_without_result_writer (2025-12-10)
    ["a Map result that is no array", { definition: MAP, mock: { result: '{"mock":"array is expected but object is provided instead"}' } }, "Mocked result must be an array."],
    // test_state_mock_validation › test_mock_result_is_not_array_on_parallel_state (2026-02-24)
    ["a Parallel result that is no array", { definition: PARALLEL, mock: { result: '{"mock":"array is expected"}' } }, "Mocked result must be an array."],
    // test_state_mock_validation › test_mock_result_array_size_mismatch_on_parallel_state (2026-02-24)
    ["a Parallel result of another length", { definition: PARALLEL, mock: { result: '[{"branch1":"result"}]' } }, "Mocked result must contain the same number of items as number of Parallel branches."],
    // test_state_mock_validation › test_map_iteration_failure_count_without_mock (2026-03-01)
    ["mapIterationFailureCount without a mock", { definition: MAP, roleArn: "arn:aws:iam::123456789012:role/r", stateConfiguration: { mapIterationFailureCount: 0 } }, "TestState does not support MapIterationFailureCount when a mock is not specified."],
    // test_state_mock_validation › test_map_iteration_failure_count_exceeds_mock_result_items (2026-03-02)
    ["more failed iterations than items", { definition: MAP, input: '{"Values":[1,1,1]}', stateConfiguration: { mapIterationFailureCount: 4 }, mock: { result: "[1,1,1]" } }, "Map iteration failure count must be less than or equal to the number of Map iterations"],
    // test_test_state_scenarios › test_base_lambda_service_task_state_no_role_arn_validation (2025-12-03)
    ["a Task that is not mocked, without a role", { definition: LAMBDA_TASK, input: '{"FunctionName":"f","Payload":null}' }, "RoleArn must be specified when testing a Task state"],
  ])("refuses %s", async (_label, request, message) => {
    expect(await rejection({ inspectionLevel: "TRACE", ...request })).toEqual({ code: "ValidationException", message });
  });

  // test_state_mock_validation › test_parallel_state_empty_branches (2026-02-24): AWS names the lone state StateName.
  it("refuses a Parallel with no branches as AWS words it", async () => {
    expect(await rejection({ definition: { Type: "Parallel", Branches: [], End: true }, inspectionLevel: "TRACE", mock: { result: "[]" } })).toEqual({
      code: "InvalidDefinition",
      message: "Invalid State Machine Definition: 'SCHEMA_VALIDATION_FAILED: Value cannot be empty at /States/StateName/Branches'",
    });
  });
});

describe("TestState, recorded on AWS: mocked results and fieldValidationMode", () => {
  const TASKS = {
    events: { Type: "Task", Resource: "arn:aws:states:::events:putEvents", Parameters: { "Entries.$": "$.Entries" }, End: true },
    sfn: { Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::states:startExecution", Arguments: { Input: "{% $states.input.targetInput %}", StateMachineArn: "{% $states.input.stateMachineArn %}", Name: "{% $states.input.name %}" }, Output: { targetExecutionResult: "{% $states.result %}" }, End: true },
    lambda: LAMBDA_TASK,
    dynamodb: { Type: "Task", Resource: "arn:aws:states:::dynamodb:putItem", Parameters: { "TableName.$": "$.TableName", "Item.$": "$.Item" }, End: true },
    s3: { Type: "Task", Resource: "arn:aws:states:::aws-sdk:s3:getObject", Parameters: { "Bucket.$": "$.Bucket", "Key.$": "$.Key" }, End: true },
    kms: { Type: "Task", Resource: "arn:aws:states:::aws-sdk:kms:encrypt", Parameters: { "KeyId.$": "$.KeyId", "Plaintext.$": "$.Plaintext" }, End: true },
    getFunction: { Type: "Task", Resource: "arn:aws:states:::aws-sdk:lambda:getFunction", Parameters: { "FunctionName.$": "$.FunctionName" }, End: true },
  };
  // The inputs the recordings used.
  const INPUTS: Record<keyof typeof TASKS, object> = {
    events: { Entries: [{ Detail: "detail", DetailType: "detail_type", Source: "source" }] },
    sfn: { stateMachineArn: "arn:aws:states:us-east-1:123456789012:stateMachine:TargetStateMachine", targetInput: null, name: "TestStartTarget" },
    lambda: { FunctionName: "function_name", Payload: null },
    dynamodb: { TableName: "table_name", Item: { data: { S: "HelloWorld" }, id: { S: "id1" } } },
    s3: { Bucket: "bucket_name", Key: "file_key" },
    kms: { KeyId: "key_id", Plaintext: "plain_text" },
    getFunction: { FunctionName: "function_name" },
  };
  const input = (task: keyof typeof TASKS) => JSON.stringify(INPUTS[task]);
  // test_field_validation_mode and test_field_validation_mode_present › test_{strict,present}_mode_* (2025-12-03)
  const REFUSED: Array<[keyof typeof TASKS, unknown, string]> = [
    ["events", { Entries: "Entries value should have been a list of entry objects" }, "Field 'Entries' must be an array"],
    ["events", { Entries: [{ EventId: ["not a string"] }] }, "Field 'EventId' must be a string"],
    ["events", { Entries: [{ EventId: "First eventId has correct type: string" }, { EventId: ["array"] }] }, "Field 'EventId' must be a string"],
    ["sfn", { ExecutionArn: "stringValueExecutionArn", StartDate: true }, "Field 'StartDate' must be a string"],
    ["lambda", { StatusCode: "200" }, "Field 'StatusCode' must be a number"],
    ["dynamodb", { ConsumedCapacity: { CapacityUnits: "123.45" } }, "Field 'CapacityUnits' must be a number"],
    ["s3", { ContentLength: "9000" }, "Field 'ContentLength' must be a number"],
    ["s3", { StorageClass: "Papyrus" }, "Field 'StorageClass' is not an expected value"],
    ["kms", { CiphertextBlob: 123 }, "Field 'CiphertextBlob' must be a string"],
    ["kms", { CiphertextBlob: "" }, "Field 'CiphertextBlob' is smaller than the minimum length"],
    ["getFunction", { Configuration: { MemorySize: 127 } }, "Field 'MemorySize' is less than the minimum value"],
    // Recorded with 10241 against a model whose maximum was 10240; botocore 1.43's model allows 32768.
    ["getFunction", { Configuration: { MemorySize: 32769 } }, "Field 'MemorySize' exceeds the maximum value"],
  ];
  it.each(REFUSED.flatMap(([task, result, message]) => (["STRICT", "PRESENT"] as const).map((mode) => [mode, task, JSON.stringify(result), message] as const)))(
    "%s: refuses a mocked %s result %s",
    async (fieldValidationMode, task, result, message) => {
      expect(await rejection({ definition: TASKS[task], input: input(task), mock: { result, fieldValidationMode } })).toEqual({ code: "ValidationException", message: `Mock result schema validation error: ${message}` });
    },
  );

  it("STRICT wants the required members, named as Step Functions names them; PRESENT and NONE do not", async () => {
    for (const result of [{}, { executionArn: "stringValueExecutionArn", startDate: "stringValueStartDate" }]) {
      expect(await rejection({ definition: TASKS.sfn, input: input("sfn"), mock: { result: JSON.stringify(result) } })).toEqual({ code: "ValidationException", message: "Mock result schema validation error: Required field 'ExecutionArn' is missing" });
      expect(await run({ definition: TASKS.sfn, input: input("sfn"), mock: { result: JSON.stringify(result), fieldValidationMode: "PRESENT" } })).toEqual({ output: { targetExecutionResult: result }, status: "SUCCEEDED" });
    }
    // test_field_validation_mode_none › test_none_mode_sfn_task[wrong_timestamp_type_bool]
    const wrong = { ExecutionArn: "stringValueExecutionArn", StartDate: true };
    expect(await run({ definition: TASKS.sfn, input: input("sfn"), mock: { result: JSON.stringify(wrong), fieldValidationMode: "NONE" } })).toEqual({ output: { targetExecutionResult: wrong }, status: "SUCCEEDED" });
  });

  it("accepts members the API does not have, and the results recorded as accepted", async () => {
    const ok = async (definition: object, result: unknown, given: object) => expect(await run({ definition, input: JSON.stringify(given), mock: { result: JSON.stringify(result) } })).toEqual({ output: result, status: "SUCCEEDED" });
    // test_strict_mode_mock_result_field_not_in_api_spec[field_not_part_of_api_spec|empty_json]
    await ok(TASKS.events, { random: "json" }, INPUTS.events);
    await ok(TASKS.events, {}, INPUTS.events);
    // test_test_state_mock_scenarios › test_base_lambda_service_task_mock_success, test_io_dynamodb_service_task_mock_success[base],
    // test_send_sqs_message_success, test_put_events_mock_success (2025-12-03)
    await ok(LAMBDA_TASK, { Payload: "function output", SdkHttpMetadata: { HttpStatusCode: 200 } }, INPUTS.lambda);
    await ok(TASKS.dynamodb, { SdkHttpMetadata: { HttpStatusCode: 200 } }, INPUTS.dynamodb);
    const sendMessage = { Type: "Task", Resource: "arn:aws:states:::sqs:sendMessage", Parameters: { "QueueUrl.$": "$.QueueUrl", "MessageBody.$": "$.MessageBody" }, End: true };
    await ok(sendMessage, { MD5OfMessageBody: "5d41402abc4b2a76b9719d911017c592", MessageId: "5fea7756-0ea4-451a-a703-a558b933e274" }, { QueueUrl: "queue_url", MessageBody: "message_body" });
    await ok(TASKS.events, { Entries: [{ EventId: "11710aed-b79e-4468-a20b-bb3c0c3b4860" }] }, INPUTS.events);
  });

  it("places a mocked DynamoDB result at the Task's ResultPath (test_io_dynamodb_service_task_mock_success[io])", async () => {
    const input = { TableName: "t", Item: { data: { S: "HelloWorld" }, id: { S: "id1" } } };
    const got = await run({ definition: { ...TASKS.dynamodb, ResultPath: "$.putItemOutput" }, input: JSON.stringify(input), mock: { result: '{"SdkHttpMetadata":{"HttpStatusCode":200}}' } });
    expect(got).toEqual({ output: { ...input, putItemOutput: { SdkHttpMetadata: { HttpStatusCode: 200 } } }, status: "SUCCEEDED" });
  });
});

describe("TestState, recorded on AWS: mocked Parallel states", () => {
  // test_test_state_mock_scenarios › test_{base,io,io_jsonata}_parallel_state_mock_success[<level>] (2026-02-24, 2026-02-27)
  const IO = { ...PARALLEL, InputPath: "$.parallelInput", ResultPath: "$.parallelResult", OutputPath: "$" };
  const JSONATA = { Type: "Parallel", QueryLanguage: "JSONata", Arguments: "{% $states.input.parallelInput %}", Output: { parallelInput: "{% $states.input.parallelInput %}", parallelResult: "{% $states.result %}" }, Branches: PARALLEL.Branches, End: true };
  const input = { parallelInput: { data: "input_value" } };
  const combined = { ...input, parallelResult: BRANCH_RESULTS };
  it.each(LEVELS)("%s", async (inspectionLevel) => {
    const mock = { result: JSON.stringify(BRANCH_RESULTS) };
    const with_ = (inspection: object) => (inspectionLevel === "INFO" ? {} : { inspectionData: inspection });
    expect(await run({ definition: PARALLEL, input: '{"key":"value"}', inspectionLevel, mock })).toEqual({
      output: BRANCH_RESULTS,
      status: "SUCCEEDED",
      ...with_({ afterResultPath: BRANCH_RESULTS, afterResultSelector: BRANCH_RESULTS, input: { key: "value" } }),
    });
    expect(await run({ definition: IO, input: JSON.stringify(input), inspectionLevel, mock })).toEqual({
      output: combined,
      status: "SUCCEEDED",
      ...with_({ afterResultPath: combined, afterResultSelector: BRANCH_RESULTS, input }),
    });
    expect(await run({ definition: JSONATA, input: JSON.stringify(input), inspectionLevel, mock })).toEqual({ output: combined, status: "SUCCEEDED", ...with_({ input }) });
  });
});
