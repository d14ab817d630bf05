/**
 * The Step Functions Local mock configuration format. The configuration below is AWS's own example (AWS Step
 * Functions Developer Guide, "Configuration file for mocked service integrations in Step Functions":
 * LambdaSQSIntegration with the test cases HappyPath, RetryPath and HybridPath); the machine is the one that
 * page's companion ("Using mocked service integrations for testing in Step Functions Local") describes: a
 * lambda:invoke state retried on Lambda errors, then sqs:sendMessage.
 */
import { GetQueueAttributesCommand, CreateQueueCommand } from "@aws-sdk/client-sqs";
import { MockConfigError, mockedStatesOf } from "../../src/stepfunctions";
import { createSqsClient, startSqs } from "../../src/sqs";
import type { LocalSqs } from "../../src/sqs";
import { machine, runOnce, types } from "@effectively-once/testing";

const LAMBDA_OK = { StatusCode: 200, Payload: { StatusCode: 200, body: "Hello from Lambda!" } };
const CONFIG = {
  StateMachines: {
    LambdaSQSIntegration: {
      TestCases: {
        HappyPath: { LambdaState: "MockedLambdaSuccess", SQSState: "MockedSQSSuccess" },
        RetryPath: { LambdaState: "MockedLambdaRetry", SQSState: "MockedSQSSuccess" },
        HybridPath: { LambdaState: "MockedLambdaSuccess" },
      },
    },
  },
  MockedResponses: {
    MockedLambdaSuccess: { "0": { Return: LAMBDA_OK } },
    LambdaMockedResourceNotReady: { "0": { Throw: { Error: "Lambda.ResourceNotReadyException", Cause: "Lambda resource is not ready." } } },
    MockedSQSSuccess: { "0": { Return: { MD5OfMessageBody: "3bcb6e8e-7h85-4375-b0bc-1a59812c6e51", MessageId: "3bcb6e8e-8b51-4375-b0bc-1a59812c6e51" } } },
    MockedLambdaRetry: {
      "0": { Throw: { Error: "Lambda.ResourceNotReadyException", Cause: "Lambda resource is not ready." } },
      "1-2": { Throw: { Error: "Lambda.TimeoutException", Cause: "Lambda timed out." } },
      "3": { Return: LAMBDA_OK },
    },
  },
};

const definition = (queueUrl = "https://sqs.us-east-1.amazonaws.com/123456789012/myQueue") => ({
  StartAt: "LambdaState",
  States: {
    LambdaState: {
      Type: "Task",
      Resource: "arn:aws:states:::lambda:invoke",
      Parameters: { "Payload.$": "$", FunctionName: "HelloWorldFunction" },
      Retry: [{ ErrorEquals: ["States.ALL"], IntervalSeconds: 2, MaxAttempts: 3, BackoffRate: 2 }],
      Next: "SQSState",
    },
    SQSState: {
      Type: "Task",
      Resource: "arn:aws:states:::sqs:sendMessage",
      Parameters: { QueueUrl: queueUrl, "MessageBody.$": "$" },
      End: true,
    },
  },
});

const mocksFor = (testCase: string, config: unknown = CONFIG) => mockedStatesOf(config, testCase, "LambdaSQSIntegration");

describe("Mocked service integrations (Step Functions Local format)", () => {
  it("HappyPath: every Task answers from its mock and no integration is called", async () => {
    // No integrations are given: a real call would fail for want of a client.
    const run = await runOnce(definition(), { hello: 1 }, { mocks: mocksFor("HappyPath") });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual(CONFIG.MockedResponses.MockedSQSSuccess["0"].Return);
    expect(types(run).filter((t) => t.startsWith("Task"))).toEqual([
      "TaskStateEntered", "TaskScheduled", "TaskStarted", "TaskSucceeded", "TaskStateExited",
      "TaskStateEntered", "TaskScheduled", "TaskStarted", "TaskSucceeded", "TaskStateExited",
    ]);
    expect(run.events.find((e) => e.type === "TaskSucceeded")?.details).toEqual(expect.objectContaining({ resourceType: "lambda", resource: "invoke", output: LAMBDA_OK }));
  });

  it("RetryPath: invocation 0 and the range 1-2 throw, invocation 3 returns; the Retry policy sees each", async () => {
    const run = await runOnce(definition(), {}, { mocks: mocksFor("RetryPath") });
    const failures = run.events.filter((e) => e.type === "TaskFailed").map((e) => (e.details as { error: string }).error);
    expect(failures).toEqual(["Lambda.ResourceNotReadyException", "Lambda.TimeoutException", "Lambda.TimeoutException"]);
    expect(run.status).toBe("SUCCEEDED");
  });

  it("without retries a Throw fails the execution with the mocked Error and Cause", async () => {
    const noRetry = definition();
    delete (noRetry.States.LambdaState as { Retry?: unknown }).Retry;
    const run = await runOnce(noRetry, {}, { mocks: mocksFor("RetryPath") });
    expect(run).toMatchObject({ status: "FAILED", error: "Lambda.ResourceNotReadyException", cause: "Lambda resource is not ready." });
  });

  describe("HybridPath: unmocked states call the real integration", () => {
    let sqs: LocalSqs;
    beforeAll(async () => {
      sqs = await startSqs();
    });
    afterAll(async () => sqs?.stop());

    it("sends the mocked Lambda payload to a real queue", async () => {
      const client = createSqsClient(sqs.endpoint);
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: "hybrid" }));
      const run = await runOnce(definition(QueueUrl), {}, { mocks: mocksFor("HybridPath"), integrations: { sqs: client } });
      const { Attributes } = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }));
      client.destroy();
      expect(run.status).toBe("SUCCEEDED");
      expect(run.output).toEqual(expect.objectContaining({ MessageId: expect.any(String), MD5OfMessageBody: expect.any(String) }));
      expect(Attributes?.ApproximateNumberOfMessages).toBe("1");
    });
  });

  it("mocks a legacy function-ARN task (LambdaFunction* events) and integrations the interpreter does not run", async () => {
    const config = {
      StateMachines: { M: { TestCases: { T: { Legacy: "Fn", Notify: "Sns" } } } },
      MockedResponses: { Fn: { "0": { Return: { total: 3 } } }, Sns: { "0": { Return: { MessageId: "m-1" } } } },
    };
    const run = await runOnce(
      {
        StartAt: "Legacy",
        States: {
          Legacy: { Type: "Task", Resource: "arn:aws:lambda:us-east-1:123456789012:function:sum", Next: "Notify" },
          Notify: { Type: "Task", Resource: "arn:aws:states:::sns:publish", Parameters: { TopicArn: "arn:aws:sns:us-east-1:123456789012:t", "Message.$": "$" }, ResultPath: "$.sns", End: true },
        },
      },
      {},
      { mocks: mockedStatesOf(config, "T") },
    );
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ total: 3, sns: { MessageId: "m-1" } });
    expect(types(run)).toEqual(expect.arrayContaining(["LambdaFunctionScheduled", "LambdaFunctionSucceeded", "TaskScheduled", "TaskSucceeded"]));
    expect(run.events.find((e) => e.type === "TaskScheduled")?.details).toEqual(expect.objectContaining({ resourceType: "sns", resource: "publish" }));
  });

  it("counts invocations per state across Map iterations, and repeats the last answer past the last key", async () => {
    const config = {
      StateMachines: { M: { TestCases: { T: { Put: "Puts" } } } },
      MockedResponses: {
        Puts: {
          "0": { Return: { n: 0 } },
          "1": { Throw: { Error: "DynamoDB.ConditionalCheckFailedException", Cause: "The conditional request failed" } },
        },
      },
    };
    const run = await runOnce(
      {
        QueryLanguage: "JSONata",
        StartAt: "Each",
        States: {
          Each: {
            Type: "Map",
            Items: "{% $states.input.items %}",
            MaxConcurrency: 1,
            ItemProcessor: {
              StartAt: "Put",
              States: {
                Put: {
                  Type: "Task",
                  Resource: "arn:aws:states:::dynamodb:putItem",
                  Arguments: { TableName: "t", Item: { pk: { S: "{% $string($states.input) %}" } } },
                  Catch: [{ ErrorEquals: ["DynamoDB.ConditionalCheckFailedException"], Output: "taken", Next: "Done" }],
                  Output: "stored",
                  Next: "Done",
                },
                Done: { Type: "Pass", End: true },
              },
            },
            End: true,
          },
        },
      },
      { items: [1, 2, 3] },
      { mocks: mockedStatesOf(config, "T") },
    );
    expect(run.output).toEqual(["stored", "taken", "taken"]);
  });

  it("refuses a mock for a state that is not a Task of the definition", () => {
    const config = { StateMachines: { M: { TestCases: { T: { Typo: "R" } } } }, MockedResponses: { R: { "0": { Return: {} } } } };
    expect(() => machine(definition(), { mocks: mockedStatesOf(config, "T") })).toThrow(
      /mocks 'Typo', which is not a Task state of this definition \(Task states: LambdaState, SQSState\)/,
    );
  });

  const invalid: Array<[string, unknown, string, RegExp]> = [
    ["not an object", [], "T", /must hold a JSON object/],
    ["no MockedResponses", { StateMachines: {} }, "T", /^Invalid mock configuration: MockedResponses must be an object/],
    ["an unknown test case", CONFIG, "Sad", /TestCases\.Sad is missing \(test cases: HappyPath, RetryPath, HybridPath\)/],
    ["a response name that is not defined", { StateMachines: { M: { TestCases: { T: { S: "Nope" } } } }, MockedResponses: {} }, "T", /names 'Nope', which MockedResponses does not define/],
    ["a bad invocation key", { StateMachines: { M: { TestCases: { T: { S: "R" } } } }, MockedResponses: { R: { first: { Return: 1 } } } }, "T", /key 'first' must be an invocation number/],
    ["a gap in the invocations", { StateMachines: { M: { TestCases: { T: { S: "R" } } } }, MockedResponses: { R: { "0": { Return: 1 }, "2": { Return: 2 } } } }, "T", /invocation 1 has no answer/],
    ["overlapping keys", { StateMachines: { M: { TestCases: { T: { S: "R" } } } }, MockedResponses: { R: { "0-1": { Return: 1 }, "1": { Return: 2 } } } }, "T", /overlaps an earlier key/],
    ["both Return and Throw", { StateMachines: { M: { TestCases: { T: { S: "R" } } } }, MockedResponses: { R: { "0": { Return: 1, Throw: { Error: "E" } } } } }, "T", /exactly one of Return and Throw/],
    ["a Throw without Error", { StateMachines: { M: { TestCases: { T: { S: "R" } } } }, MockedResponses: { R: { "0": { Throw: { Cause: "c" } } } } }, "T", /R\.0\.Throw must be .* non-empty Error/],
  ];

  it.each(invalid)("refuses %s, naming the field", (_label, config, testCase, message) => {
    const machineName = Object.keys((config as { StateMachines?: object })?.StateMachines ?? {})[0];
    const parse = () => mockedStatesOf(config, testCase, machineName);
    expect(parse).toThrow(MockConfigError);
    expect(parse).toThrow(message);
  });
});
