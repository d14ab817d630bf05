import { CreateTableCommand, DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { startDynamo, startDynamoFaultProxy, waitForTableActive } from "../../src/dynamodb";
import type { DynamoFaultProxy, LocalDynamo } from "../../src/dynamodb";
import { createFaultPlan } from "../../src/faults";
import type { FaultPlan, FaultRule } from "../../src/faults";
import { createLambdaRunner } from "../../src/lambda";
import { InvalidLambdaConfigError } from "../../src/lambda/errors";
import type { LambdaRunner } from "../../src/lambda";
import type { InvokeResponse } from "../../src/lambda/types";
import { buildHandlerBundle, DYNAMO_HANDLER } from "./fixture";

/** The side effect: the function's PutItem of the CHARGE item into the effects table. */
const CHARGE = { table: "effects", operation: "PutItem", item: { sk: "CHARGE" } };

let dynamo: LocalDynamo;
let direct: DynamoDBClient;
let bundle: { dir: string; cleanup(): Promise<void> };
const stoppers: Array<() => Promise<void>> = [];
let keyCount = 0;

beforeAll(async () => {
  [dynamo, bundle] = await Promise.all([startDynamo(), buildHandlerBundle(DYNAMO_HANDLER)]);
  direct = new DynamoDBClient({ endpoint: dynamo.endpoint, region: "us-east-1", credentials: { accessKeyId: "l", secretAccessKey: "l" } });
  await direct.send(
    new CreateTableCommand({
      TableName: "effects",
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    }),
  );
  await waitForTableActive(direct, "effects");
});

afterAll(async () => {
  for (const stop of stoppers.reverse()) await stop();
  direct?.destroy();
  await dynamo?.stop();
  await bundle?.cleanup();
});

/** A runner for one function `payments` behind a fresh fault proxy, with the given rules. */
async function setup(rules: FaultRule[], timeoutSeconds = 3): Promise<{ runner: LambdaRunner; plan: FaultPlan; proxy: DynamoFaultProxy }> {
  const plan = createFaultPlan({ seed: "side-effects", rules });
  const proxy = await startDynamoFaultProxy({ target: dynamo.endpoint, faults: plan });
  const runner = await createLambdaRunner({
    functions: [
      {
        name: "payments",
        arn: "arn:aws:lambda:us-east-1:123456789012:function:payments",
        bundle: { dir: bundle.dir },
        env: { EFFECTS_TABLE: "effects" },
        timeoutSeconds,
      },
    ],
    dynamodbProxy: proxy,
    faults: plan,
    logs: "silent",
  });
  stoppers.push(() => proxy.stop(), () => runner.stop());
  return { runner, plan, proxy };
}

async function charge(runner: LambdaRunner, extra: Record<string, unknown> = {}): Promise<{ key: string; response: InvokeResponse }> {
  keyCount += 1;
  const key = `order-${keyCount}`;
  const response = await runner.invoke({ FunctionName: "payments", Payload: JSON.stringify({ key, ...extra }) });
  return { key, response };
}

/** How many CHARGE items exist for a key: the number of applied side effects. */
async function applied(key: string): Promise<number> {
  const { Items = [] } = await direct.send(
    new ScanCommand({ TableName: "effects", ConsistentRead: true, FilterExpression: "pk = :k", ExpressionAttributeValues: { ":k": { S: key } } }),
  );
  return Items.length;
}

const errorOf = (response: InvokeResponse) => (response.FunctionError ? (JSON.parse(response.Payload) as { errorType: string }) : undefined);

describe("Lambda faults keyed to the side effect (through the DynamoDB fault proxy)", () => {
  it("crash before the side effect: the write never reaches the table; the retry applies it once", async () => {
    // Arrange
    const { runner, plan } = await setup([{ service: "lambda", function: "payments", action: "crash", when: "before", sideEffect: CHARGE, times: 1 }]);
    // Act
    const first = await charge(runner);
    const countAfterCrash = await applied(first.key);
    const retry = await runner.invoke({ FunctionName: "payments", Payload: JSON.stringify({ key: first.key }) });
    // Assert
    expect(errorOf(first.response)?.errorType).toBe("Runtime.ExitError");
    expect(countAfterCrash).toBe(0);
    expect(retry.FunctionError).toBeUndefined();
    expect(await applied(first.key)).toBe(1);
    expect(plan.report().byKind).toEqual({ "lambda.crash.before": 1 });
    expect(runner.stats().functions.payments).toMatchObject({ crashes: 1, coldStarts: 2 });
  });

  it("crash after the side effect: the write is in the table, yet the caller sees the crash", async () => {
    const { runner, plan } = await setup([{ service: "lambda", function: "payments", action: "crash", when: "after", sideEffect: CHARGE, times: 1 }]);
    const { key, response } = await charge(runner);
    expect(errorOf(response)).toMatchObject({ errorType: "Runtime.ExitError", errorMessage: expect.stringMatching(/signal: killed$/) });
    expect(await applied(key)).toBe(1);
    expect(plan.report().byKind).toEqual({ "lambda.crash.after": 1 });
  });

  it("hang before / after the side effect ends as a timeout, with the write absent / present", async () => {
    const { runner, plan } = await setup(
      [
        { service: "lambda", id: "hang-before", function: "payments", action: "hang", when: "before", sideEffect: CHARGE, times: 1 },
        { service: "lambda", id: "hang-after", function: "payments", action: "hang", when: "after", sideEffect: CHARGE, times: 1 },
      ],
      0.5,
    );
    const before = await charge(runner);
    const after = await charge(runner);
    expect(errorOf(before.response)?.errorType).toBe("Sandbox.Timedout");
    expect(await applied(before.key)).toBe(0);
    expect(errorOf(after.response)?.errorType).toBe("Sandbox.Timedout");
    expect(await applied(after.key)).toBe(1);
    expect(plan.report().byRule).toEqual({ "hang-before": 1, "hang-after": 1 });
  });

  it("fail before / after the side effect returns a transient function error", async () => {
    const { runner } = await setup([
      { service: "lambda", function: "payments", action: "fail", when: "before", sideEffect: CHARGE, times: 1, errorType: "DownstreamUnavailable" },
      { service: "lambda", function: "payments", action: "fail", when: "after", sideEffect: CHARGE, times: 1 },
    ]);
    const before = await charge(runner);
    const after = await charge(runner);
    expect(errorOf(before.response)?.errorType).toBe("DownstreamUnavailable");
    expect(await applied(before.key)).toBe(0);
    expect(errorOf(after.response)?.errorType).toBe("InjectedTransientError");
    expect(await applied(after.key)).toBe(1);
  });

  it("without a side-effect matcher, 'after' means after the handler returned", async () => {
    const { runner, plan } = await setup([{ service: "lambda", function: "payments", action: "crash", when: "after", probability: 1, times: 1 }]);
    const { key, response } = await charge(runner);
    expect(errorOf(response)?.errorType).toBe("Runtime.ExitError");
    expect(await applied(key)).toBe(1);
    expect(plan.report().byKind).toEqual({ "lambda.crash.after": 1 });
  });

  it("DynamoDB throttling reaches the SDK inside the function: an error with maxAttempts 1, a transparent retry otherwise", async () => {
    const { runner, plan } = await setup([{ service: "dynamodb", action: "throttle", match: { table: "effects" }, times: 2 }]);
    const noRetry = await charge(runner, { maxAttempts: 1 });
    const retried = await charge(runner);
    expect(errorOf(noRetry.response)?.errorType).toBe("ProvisionedThroughputExceededException");
    expect(await applied(noRetry.key)).toBe(0);
    expect(JSON.parse(retried.response.Payload)).toMatchObject({ attempts: 2 });
    expect(await applied(retried.key)).toBe(1);
    expect(plan.report().byKind).toEqual({ "dynamodb.throttle": 2 });
  });

  it("a delay rule starts the handler late and eats into its time", async () => {
    const { runner, plan } = await setup([{ service: "lambda", function: "payments", action: "delay", latencyMs: 400, times: 1 }]);
    const { response } = await charge(runner);
    // The handler's own deadline shows the delay (a busier host only lowers it further); the plan counts the fault.
    expect(JSON.parse(response.Payload).remaining).toBeLessThanOrEqual(2_600);
    expect(plan.report().byKind).toEqual({ "lambda.delay": 1 });
  });

  it("refuses side-effect rules without the proxy that can see them", async () => {
    const plan = createFaultPlan({ seed: 1, rules: [{ service: "lambda", function: "payments", action: "crash", when: "after", sideEffect: CHARGE }] });
    const attempt = createLambdaRunner({
      functions: [{ name: "payments", arn: "arn:aws:lambda:us-east-1:123456789012:function:payments", bundle: { dir: bundle.dir } }],
      faults: plan,
    });
    await expect(attempt).rejects.toThrow(InvalidLambdaConfigError);
    await expect(attempt).rejects.toThrow(/need dynamodbProxy/);
  });
});
