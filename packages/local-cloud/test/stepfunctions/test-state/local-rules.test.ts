/**
 * TestState's rules where AWS left no recording: the API model's constraints, hostile names, the integrations a Task
 * that is not mocked calls, Wait states, the five-minute limit and the payload quota.
 */
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { testState } from "../../../src/stepfunctions/test-state";
import { operationOf } from "../../../src/stepfunctions/test-state/result-shape";
import { createTable, startBareDynalite, type LocalDynamo } from "@effectively-once/testing";
import { FakeClock } from "@effectively-once/testing";
import { parsed, rejection, run } from "./support";

const PASS = { Type: "Pass", End: true };
const ROLE = "arn:aws:iam::000000000000:role/workflow";

describe("TestState: the request as AWS's model constrains it", () => {
  it("lists every violation in AWS's words", async () => {
    expect(await rejection({ definition: "", stateName: "x".repeat(81), mock: { result: "{}", fieldValidationMode: "LAX" as never } })).toEqual({
      code: "ValidationException",
      message:
        "3 validation errors detected: Value at 'definition' failed to satisfy constraint: Member must have length greater than or equal to 1; " +
        "Value at 'stateName' failed to satisfy constraint: Member must have length less than or equal to 80; " +
        "Value 'LAX' at 'mock.fieldValidationMode' failed to satisfy constraint: Member must satisfy enum value set: [STRICT, PRESENT, NONE]",
    });
    await expect(testState({})).rejects.toMatchObject({ code: "ValidationException", message: "1 validation error detected: Value null at 'definition' failed to satisfy constraint: Member must not be null" });
    await expect(testState({ definition: 7 })).rejects.toMatchObject({ code: "SerializationException" });
    expect(await rejection({ definition: PASS, stateConfiguration: { retrierRetryCount: -1 } })).toMatchObject({ message: expect.stringContaining("Value -1 at 'stateConfiguration.retrierRetryCount'") });
  });

  it("counts the JSON members' limit in UTF-8 bytes, as the model documents for SensitiveData", async () => {
    const accented = JSON.stringify("é".repeat(131_071)); // 131,073 characters, 262,144 bytes
    expect(accented.length).toBeLessThan(262_144);
    expect(await run({ definition: PASS, input: accented })).toMatchObject({ status: "SUCCEEDED" });
    expect(await rejection({ definition: PASS, input: JSON.stringify("é".repeat(131_072)) })).toMatchObject({ message: expect.stringContaining("at 'input' failed to satisfy constraint: Member must have length less than or equal to 262144") });
  });

  it("refuses input that is not JSON as StartExecution does, and variables that are no object of variable names", async () => {
    expect(await rejection({ definition: PASS, input: "{oops" })).toMatchObject({ code: "InvalidExecutionInput", message: expect.stringMatching(/^Invalid State Machine Execution Input: '/) });
    expect(await rejection({ definition: PASS, variables: "[1]" })).toMatchObject({ code: "ValidationException", message: expect.stringContaining("variables must be a JSON object") });
    expect(await rejection({ definition: PASS, variables: '{"1st":1}' })).toMatchObject({ message: expect.stringContaining("'1st' is not a valid variable name") });
    expect(await rejection({ definition: PASS, roleArn: "role" })).toMatchObject({ code: "InvalidArn" });
  });

  it("refuses a definition that is not JSON, and a whole machine without stateName", async () => {
    expect(await rejection({ definition: "{" })).toMatchObject({ code: "InvalidDefinition", message: expect.stringMatching(/^Invalid State Machine Definition: 'INVALID_JSON_DESCRIPTION: /) });
    expect(await rejection({ definition: { StartAt: "A", States: { A: PASS } } })).toMatchObject({ code: "InvalidDefinition", message: expect.stringContaining("at /States/StateName/Type") });
  });

  it("refuses a mock for a Choice or Wait, a mock with neither member, an error without a name, a context without a mock", async () => {
    const choice = { Type: "Choice", Choices: [{ Variable: "$.a", IsPresent: true, Next: "A" }], Default: "B" };
    expect(await rejection({ definition: choice, mock: { result: "{}" } })).toMatchObject({ message: "State type 'Choice' is not supported when a mock is specified" });
    expect(await rejection({ definition: { Type: "Wait", Seconds: 1, End: true }, mock: { result: "{}" } })).toMatchObject({ message: "State type 'Wait' is not supported when a mock is specified" });
    const task = { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", End: true };
    expect(await rejection({ definition: task, mock: {} })).toMatchObject({ message: "A test mock should have one of the following fields: [result, errorOutput]." });
    expect(await rejection({ definition: task, mock: { errorOutput: { cause: "c" } } })).toMatchObject({ message: expect.stringContaining("mock.errorOutput.error is required") });
    expect(await rejection({ definition: task, roleArn: ROLE, context: "{}" })).toMatchObject({ message: "TestState supports a Context object only when a mock is specified." });
  });

  it("refuses an errorCausedByState that is not inside the mocked Map", async () => {
    const map = { Type: "Map", ItemProcessor: { StartAt: "Item", States: { Item: PASS } }, End: true };
    const request = { definition: map, input: "[1]", mock: { errorOutput: { error: "E", cause: "C" } } };
    expect(await run({ ...request, stateConfiguration: { errorCausedByState: "Item" } })).toMatchObject({ status: "FAILED", error: "E" });
    expect(await rejection({ ...request, stateConfiguration: { errorCausedByState: "Itme" } })).toMatchObject({ message: expect.stringContaining("'Itme' is not a state inside the Map state under test") });
  });
});

describe("TestState: names from the definition and the request are data", () => {
  it("finds a state named __proto__, and no state named constructor", async () => {
    const machine = JSON.stringify({ StartAt: "__proto__", States: { ["__proto__"]: { Type: "Pass", Result: { found: true }, Next: "constructor" }, constructor: PASS } });
    const parsedOnce = JSON.parse(machine) as { States: object };
    expect(Object.keys(parsedOnce.States)).toEqual(["__proto__", "constructor"]);
    expect(await run({ definition: machine, stateName: "__proto__" })).toEqual({ output: { found: true }, nextState: "constructor", status: "SUCCEEDED" });
    expect(await rejection({ definition: { StartAt: "A", States: { A: PASS } }, stateName: "constructor" })).toEqual({ code: "ValidationException", message: "State not found in definition" });
  });

  it("keeps a variable named __proto__ a variable", async () => {
    const got = await run({ definition: { Type: "Pass", QueryLanguage: "JSONata", Assign: { hasOwn: "{% 1 %}" }, End: true }, variables: '{"__proto__":{"polluted":true}}', inspectionLevel: "DEBUG" });
    expect(got.inspectionData?.variables).toEqual(JSON.parse('{"__proto__":{"polluted":true},"hasOwn":1}'));
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("maps a Task resource to the API whose output a mock must fit; a made-up operation checks nothing", async () => {
    expect(operationOf("arn:aws:states:::dynamodb:putItem")).toEqual({ service: "dynamodb", operation: "PutItem" });
    expect(operationOf("arn:aws:states:::aws-sdk:sfn:startExecution")).toEqual({ service: "stepfunctions", operation: "StartExecution" });
    expect(operationOf("arn:aws-cn:states:::states:startExecution")).toEqual({ service: "stepfunctions", operation: "StartExecution" });
    expect(operationOf("arn:aws:states:::lambda:invoke.waitForTaskToken")).toBeUndefined();
    expect(operationOf("arn:aws:lambda:us-east-1:123456789012:function:f")).toBeUndefined();
    const task = { Type: "Task", Resource: "arn:aws:states:::dynamodb:__proto__", End: true };
    expect(await run({ definition: task, mock: { result: '{"x":1}' } })).toEqual({ output: { x: 1 }, status: "SUCCEEDED" });
  });
});

describe("TestState: running the state", () => {
  let dynamo: LocalDynamo;
  beforeAll(async () => {
    dynamo = await startBareDynalite();
    await createTable(dynamo.client, "ledger");
  });
  afterAll(() => dynamo?.close());

  it("calls the integration of a Task that is not mocked, through the clients it was given", async () => {
    const put = { Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::dynamodb:putItem", Arguments: { TableName: "ledger", Item: { pk: { S: "{% $states.input.k %}" }, sk: { S: "charge" } }, ConditionExpression: "attribute_not_exists(pk)" }, Catch: [{ ErrorEquals: ["DynamoDB.ConditionalCheckFailedException"], Next: "Inspect" }], Next: "Invoke" };
    const request = { definition: JSON.stringify(put), input: '{"k":"t#1"}', roleArn: ROLE };
    const first = await testState(request, { integrations: { dynamodb: dynamo.client } });
    expect(first).toMatchObject({ status: "SUCCEEDED", nextState: "Invoke" });
    expect((await dynamo.client.send(new GetItemCommand({ TableName: "ledger", Key: { pk: { S: "t#1" }, sk: { S: "charge" } } }))).Item).toBeDefined();
    expect(await testState(request, { integrations: { dynamodb: dynamo.client } })).toMatchObject({ status: "CAUGHT_ERROR", error: "DynamoDB.ConditionalCheckFailedException", nextState: "Inspect" });
  });

  it("reports where a Wait goes without waiting it out", async () => {
    // A clock in auto mode would let a day's sleep pass unnoticed: its `sleeps` show whether the Wait asked for one.
    const clock = new FakeClock();
    const answer = await testState({ definition: JSON.stringify({ Type: "Wait", Seconds: 86_400, Next: "Later" }), input: '{"a":1}', roleArn: ROLE }, { clock });
    expect(parsed(answer)).toEqual({ output: { a: 1 }, nextState: "Later", status: "SUCCEEDED" });
    expect(clock.sleeps).not.toContain(86_400_000);
  });

  it("fails with States.Timeout when the state outlives the five minutes a test may run", async () => {
    const clock = new FakeClock();
    const task = { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: { FunctionName: "slow" }, End: true };
    const answer = await testState({ definition: JSON.stringify(task), roleArn: ROLE }, { clock, integrations: { lambda: () => new Promise(() => undefined) } });
    expect(answer).toEqual({ error: "States.Timeout", cause: "The state did not finish within the 300 seconds a test may run.", status: "FAILED" });
    expect(clock.sleeps).toContain(300_000);
  });

  it("fails an output over the 256 KiB payload quota with States.DataLimitExceeded", async () => {
    const big = JSON.stringify({ s: "x".repeat(262_100) });
    expect(await run({ definition: { Type: "Pass", QueryLanguage: "JSONata", Output: "{% $states.input.s & $states.input.s %}", End: true }, input: big })).toMatchObject({ status: "FAILED", error: "States.DataLimitExceeded" });
  });

  it("reports stateConfiguration.retrierRetryCount as the context's State.RetryCount", async () => {
    const task = { Type: "Task", QueryLanguage: "JSONata", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f" }, Output: "{% $states.context.State.RetryCount %}", End: true };
    expect(await run({ definition: task, mock: { result: "{}" }, stateConfiguration: { retrierRetryCount: 2 } })).toEqual({ output: 2, status: "SUCCEEDED" });
  });
});
