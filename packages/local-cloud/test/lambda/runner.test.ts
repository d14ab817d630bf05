import { createLambdaRunner } from "../../src/lambda";
import { ResourceNotFoundException } from "../../src/lambda/errors";
import type { LambdaRunner } from "../../src/lambda";
import type { InvokeResponse, LambdaFunctionConfig } from "../../src/lambda/types";
import { waitFor } from "@effectively-once/testing";
import { sharedClock } from "../../src/clock";
import { BASIC_HANDLER, buildHandlerBundle } from "./fixture";

const ARN = (name: string) => `arn:aws:lambda:eu-west-1:123456789012:function:${name}`;
const logLines: Array<{ line: string; functionName: string; stream: string }> = [];

let bundle: { dir: string; cleanup(): Promise<void> };
let runner: LambdaRunner;

function fn(name: string, extra: Partial<LambdaFunctionConfig> = {}): LambdaFunctionConfig {
  return { name, arn: ARN(name), bundle: { dir: bundle.dir }, handler: "index.handler", timeoutSeconds: 3, memoryMb: 256, ...extra };
}

beforeAll(async () => {
  bundle = await buildHandlerBundle(BASIC_HANDLER);
  process.env.HOST_ONLY_SECRET = "must-not-leak";
  runner = await createLambdaRunner({
    functions: [
      fn("payments", { env: { COLOR: "red", EFFECTS_TABLE: "effects" } }),
      fn("refunds", { env: { COLOR: "blue" } }),
      fn("short", { timeoutSeconds: 0.5 }),
      fn("single", { reservedConcurrency: 1 }),
      fn("callbacks", { handler: "index.callbackHandler" }),
      fn("nested", { handler: "index.nested.deep.handler" }),
      fn("missing", { handler: "index.notThere" }),
    ],
    endpoints: { dynamodb: "http://127.0.0.1:1111", sqs: "http://127.0.0.1:2222" },
    logs: (line, meta) => logLines.push({ line, functionName: meta.functionName, stream: meta.stream }),
  });
});

afterAll(async () => {
  delete process.env.HOST_ONLY_SECRET;
  await runner?.stop();
  await bundle?.cleanup();
});

const call = (FunctionName: string, event: unknown, extra: { Qualifier?: string; InvocationType?: string } = {}) =>
  runner.invoke({ FunctionName, Payload: JSON.stringify(event), ...extra });
const parsed = (response: InvokeResponse) => JSON.parse(response.Payload) as Record<string, any>;

describe("Function: createLambdaRunner", () => {
  describe("Method: invoke", () => {
    it("gives each function its own environment: its variables, Lambda's reserved ones, the emulator endpoints, nothing from the host", async () => {
      // Arrange
      const keys = ["COLOR", "EFFECTS_TABLE", "HOST_ONLY_SECRET", "AWS_LAMBDA_FUNCTION_NAME", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
        "AWS_LAMBDA_FUNCTION_VERSION", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_EXECUTION_ENV", "LAMBDA_TASK_ROOT", "_HANDLER",
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "TZ", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS"];
      // Act
      const payments = parsed(await call("payments", { action: "env", keys }));
      const refunds = parsed(await call("refunds", { action: "env", keys: ["COLOR", "EFFECTS_TABLE", "AWS_LAMBDA_FUNCTION_NAME"] }));
      // Assert
      expect(payments).toEqual({
        COLOR: "red",
        EFFECTS_TABLE: "effects",
        HOST_ONLY_SECRET: null,
        AWS_LAMBDA_FUNCTION_NAME: "payments",
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "256",
        AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
        AWS_REGION: "eu-west-1",
        AWS_DEFAULT_REGION: "eu-west-1",
        AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
        LAMBDA_TASK_ROOT: bundle.dir,
        _HANDLER: "index.handler",
        AWS_ACCESS_KEY_ID: "local",
        AWS_SECRET_ACCESS_KEY: "local",
        TZ: ":UTC",
        AWS_ENDPOINT_URL_DYNAMODB: "http://127.0.0.1:1111",
        AWS_ENDPOINT_URL_SQS: "http://127.0.0.1:2222",
      });
      expect(refunds).toEqual({ COLOR: "blue", EFFECTS_TABLE: null, AWS_LAMBDA_FUNCTION_NAME: "refunds" });
      expect(process.env.AWS_LAMBDA_FUNCTION_NAME).toBeUndefined(); // the host's env is untouched
    });

    it("passes a Lambda-shaped context", async () => {
      const first = parsed(await call("payments", { action: "context" }));
      const second = parsed(await call(ARN("payments"), { action: "context" }, { Qualifier: "$LATEST" }));
      expect(first).toMatchObject({
        functionName: "payments",
        functionVersion: "$LATEST",
        invokedFunctionArn: ARN("payments"),
        memoryLimitInMB: "256",
        logGroupName: "/aws/lambda/payments",
        callbackWaitsForEmptyEventLoop: true,
      });
      expect(first.awsRequestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(second.awsRequestId).not.toBe(first.awsRequestId);
      expect(second.invokedFunctionArn).toBe(`${ARN("payments")}:$LATEST`);
      expect(first.logStreamName).toMatch(/^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
      expect(first.remaining).toBeGreaterThan(2_000);
      expect(first.remaining).toBeLessThanOrEqual(3_000);
      expect(first.traceId).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=0$/);
    });

    it("keeps environments warm: module scope survives between invocations", async () => {
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) counts.push(parsed(await call("refunds", { action: "count" })).count);
      expect(counts[1]).toBe((counts[0] as number) + 1);
      expect(counts[2]).toBe((counts[0] as number) + 2);
      expect(runner.stats().functions.refunds).toMatchObject({ coldStarts: 1, idle: 1, active: 0 });
    });

    it("adds each invocation's run to the function's durationMs (Lambda's REPORT Duration), within the caller's wall time", async () => {
      // Arrange: a warm environment, so no init is in the figures.
      await call("refunds", { action: "count" });
      const before = runner.stats().functions.refunds!;
      const started = performance.now();

      // Act: one invocation that works 50 ms, one that returns at once.
      await call("refunds", { action: "sleep", ms: 50 });
      await call("refunds", { action: "count" });
      const wall = performance.now() - started;

      // Assert
      const after = runner.stats().functions.refunds!;
      expect(after.invocations - before.invocations).toBe(2);
      // (a timer may fire up to 1 ms early)
      expect(after.durationMs - before.durationMs).toBeGreaterThanOrEqual(49);
      expect(after.durationMs - before.durationMs).toBeLessThanOrEqual(wall);
    });

    it("returns a thrown error as Lambda does: 200, FunctionError Unhandled, errorType/errorMessage/trace; the environment stays warm", async () => {
      // Arrange
      const before = parsed(await call("payments", { action: "count" })).count;
      // Act
      const thrown = await call("payments", { action: "throw" });
      const stringThrown = await call("payments", { action: "throwString" });
      const after = parsed(await call("payments", { action: "count" })).count;
      // Assert
      expect(thrown).toMatchObject({ StatusCode: 200, FunctionError: "Unhandled", ExecutedVersion: "$LATEST" });
      const error = parsed(thrown);
      expect(error).toMatchObject({ errorType: "PaymentDeclined", errorMessage: "card declined" });
      expect(error.trace[0]).toBe("PaymentDeclined: card declined");
      expect(error.trace.length).toBeGreaterThan(1);
      expect(parsed(stringThrown)).toEqual({ errorType: "string", errorMessage: "plain string", trace: [] });
      expect(after).toBe(before + 3);
    });

    it("times out like Lambda: Sandbox.Timedout, the environment is discarded", async () => {
      // Arrange
      const warm = parsed(await call("short", { action: "count" })).count;
      // Act: a sleep ten times the 0.5 s timeout; only the deadline can make the answer an error.
      const response = await call("short", { action: "sleep", ms: 5_000 });
      const next = parsed(await call("short", { action: "count" })).count;
      // Assert
      expect(response).toMatchObject({ StatusCode: 200, FunctionError: "Unhandled" });
      const error = parsed(response);
      expect(error.errorType).toBe("Sandbox.Timedout");
      expect(error.errorMessage).toMatch(/^RequestId: [0-9a-f-]{36} Error: Task timed out after 0\.50 seconds$/);
      expect(warm).toBe(1);
      expect(next).toBe(1); // a fresh environment: module scope starts over
      expect(runner.stats().functions.short).toMatchObject({ timeouts: 1, coldStarts: 2 });
    });

    it("times out on the function's own time: a jump of the shared clock while the handler runs does not end it", async () => {
      // Arrange: a warm environment, so that the invocation reaches its worker within a few microtasks.
      await call("payments", { action: "count" });
      const clock = sharedClock();
      // Act: the handler starts while this thread is blocked; the clock jumps past the 3 s timeout before this thread
      // reads the environment's "started" message.
      const pending = call("payments", { action: "sleep", ms: 1_000 });
      for (let i = 0; i < 50; i += 1) await Promise.resolve();
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      clock.advance(60);
      let response: InvokeResponse;
      try {
        response = await pending;
      } finally {
        clock.advance(-60);
      }
      // Assert
      expect(response.FunctionError).toBeUndefined();
      expect(parsed(response).count).toBeGreaterThan(1);
    });

    it.each([
      [{ action: "exit", code: 2 }, "Runtime.ExitError", /^RequestId: [0-9a-f-]{36} Error: Runtime exited with error: exit status 2$/],
      [{ action: "exit", code: 0 }, "Runtime.ExitError", /^RequestId: [0-9a-f-]{36} Error: Runtime exited without providing a reason$/],
      [{ action: "uncaught" }, "TypeError", /^kaboom$/],
      [{ action: "reject" }, "Runtime.UnhandledPromiseRejection", /^Error: yikes$/],
    ])("reports a crash (%o) as Lambda does and replaces the environment", async (event, errorType, message) => {
      const before = runner.stats().functions.refunds?.crashes ?? 0;
      const response = await call("refunds", event);
      const fresh = parsed(await call("refunds", { action: "count" })).count;
      expect(response).toMatchObject({ StatusCode: 200, FunctionError: "Unhandled" });
      expect(parsed(response).errorType).toBe(errorType);
      expect(parsed(response).errorMessage).toMatch(message);
      expect(fresh).toBe(1);
      expect(runner.stats().functions.refunds?.crashes).toBe(before + 1);
    });

    it("throttles above reserved concurrency with TooManyRequestsException", async () => {
      // Arrange
      const slow = call("single", { action: "sleep", ms: 300 });
      // Act
      const throttled = await call("single", { action: "count" }).catch((e: Error) => e);
      await slow;
      const afterwards = await call("single", { action: "count" });
      // Assert
      expect(throttled).toMatchObject({ name: "TooManyRequestsException", statusCode: 429, Reason: "ReservedFunctionConcurrentInvocationLimitExceeded" });
      expect(afterwards.StatusCode).toBe(200);
      expect(runner.stats().functions.single?.throttles).toBe(1);
    });

    it("queues instead of throttling when onThrottle is 'queue', reusing the one environment", async () => {
      // Arrange
      const queued = await createLambdaRunner({
        functions: [fn("queued", { reservedConcurrency: 1 })],
        onThrottle: "queue",
        logs: "silent",
      });
      try {
        // Act
        const [a, b] = await Promise.all([
          queued.invoke({ FunctionName: "queued", Payload: JSON.stringify({ action: "sleep", ms: 150 }) }),
          queued.invoke({ FunctionName: "queued", Payload: JSON.stringify({ action: "sleep", ms: 150 }) }),
        ]);
        // Assert: one environment ran both, one after the other (its count went 1, 2), and none was refused.
        expect([parsed(a).count, parsed(b).count].sort()).toEqual([1, 2]);
        expect(queued.stats().functions.queued).toMatchObject({ throttles: 0, coldStarts: 1, invocations: 2 });
      } finally {
        await queued.stop();
      }
    });

    it("resolves functions by name, ARN, partial ARN and name:qualifier, and rejects unknown ones like Lambda", async () => {
      for (const name of ["nested", ARN("nested"), "123456789012:function:nested", "nested:$LATEST"]) {
        expect(parsed(await call(name, {}))).toBe("nested");
      }
      const unknown = await call("nope", {}).catch((e: Error) => e);
      expect(unknown).toBeInstanceOf(ResourceNotFoundException);
      expect(unknown).toMatchObject({ name: "ResourceNotFoundException", message: `Function not found: ${ARN("nope")}` });
      const version = await call("nested", {}, { Qualifier: "7" }).catch((e: Error) => e);
      expect(version).toMatchObject({ name: "ResourceNotFoundException", message: `Function not found: ${ARN("nested")}:7` });
    });

    it("supports callback handlers, null results, and rejects payloads that are not JSON", async () => {
      expect(parsed(await call("callbacks", { a: 1 }))).toEqual({ via: "callback", event: { a: 1 } });
      expect((await call("payments", { action: "nothing" })).Payload).toBe("null");
      const bad = await runner.invoke({ FunctionName: "payments", Payload: "{not json" }).catch((e: Error) => e);
      expect(bad).toMatchObject({ name: "InvalidRequestContentException", statusCode: 400 });
    });

    it("reports a handler that is not exported as Runtime.HandlerNotFound", async () => {
      const response = await call("missing", {});
      expect(response.FunctionError).toBe("Unhandled");
      expect(parsed(response)).toMatchObject({ errorType: "Runtime.HandlerNotFound", errorMessage: "index.notThere is undefined or not exported" });
    });

    it("runs Event invocations in the background (202) and DryRun checks only (204)", async () => {
      const before = runner.stats().functions.callbacks?.invocations ?? 0;
      expect(await call("callbacks", {}, { InvocationType: "Event" })).toEqual({ StatusCode: 202, Payload: "" });
      expect(await call("callbacks", {}, { InvocationType: "DryRun" })).toEqual({ StatusCode: 204, Payload: "" });
      await waitFor(() => runner.stats().functions.callbacks?.invocations === before + 1, { message: "event invocation ran" });
    });

    it("caps the response size like Lambda", async () => {
      const response = await call("payments", { action: "big", size: 6_300_000 });
      expect(parsed(response)).toMatchObject({ errorType: "Function.ResponseSizeTooLarge" });
    });

    it("stops waiting when the caller aborts; the invocation finishes on its own", async () => {
      const controller = new AbortController();
      const pending = runner.invoke({ FunctionName: "refunds", Payload: JSON.stringify({ action: "sleep", ms: 200 }) }, controller.signal);
      controller.abort(new Error("caller gave up"));
      await expect(pending).rejects.toThrow("caller gave up");
      await waitFor(() => runner.stats().functions.refunds?.active === 0, { message: "aborted invocation finished" });
    });

    it("hands console output to the logs option, line by line, per function", async () => {
      await call("refunds", { action: "log", message: "hello logs" });
      const lines = await waitFor(() => {
        const mine = logLines.filter((l) => l.functionName === "refunds");
        return mine.some((l) => l.stream === "stderr" && l.line === "to stderr") ? mine : undefined;
      }, { message: "handler output captured" });
      expect(lines).toContainEqual({ line: JSON.stringify({ level: "INFO", message: "hello logs" }), functionName: "refunds", stream: "stdout" });
    });
  });
});
