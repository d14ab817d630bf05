import { captureOutput } from "./support/capture-output";
import { type DepositResult, FUNCTION_NAME, depositEnv, depositEvent, redelivery } from "./support/deposit";
import { depositHandlerFixture } from "./support/deposit-fixture";
import { lambdaContext } from "./support/lambda-context";
import { loadHandler } from "./support/load-handler";

const TABLES = { idempotency: "logging-idempotency", effects: "logging-effects" };

type LogLine = Record<string, unknown>;
const parse = (lines: string[]): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

describe("Function: createPipelineHandler logging and cold start", () => {
  const fx = depositHandlerFixture(TABLES, { POWERTOOLS_LOG_LEVEL: "INFO" });

  it("writes one line per applied invocation with businessKey, operation, messageId, request id, outcome and what the side effect noted", async () => {
    // Arrange
    const event = depositEvent();
    const context = lambdaContext(FUNCTION_NAME);

    // Act
    const { error, result, lines } = await captureOutput(() => fx.handler(event, context));

    // Assert
    expect(error).toBeUndefined();
    expect(parse(lines)).toEqual([
      expect.objectContaining({
        level: "INFO",
        message: "invocation applied",
        service: "deposits",
        businessKey: event.businessKey,
        operation: "deposit",
        messageId: event.messageId,
        function_request_id: context.awsRequestId,
        outcome: "applied",
        depositId: (result as DepositResult | undefined)?.depositId,
      }),
    ]);
  });

  it("logs a duplicate served from the stored record as one line with the duplicate's own messageId", async () => {
    // Arrange
    const event = depositEvent();
    await captureOutput(() => fx.handler(event, lambdaContext(FUNCTION_NAME)));
    const duplicate = redelivery(event);

    // Act
    const { lines } = await captureOutput(() => fx.handler(duplicate, lambdaContext(FUNCTION_NAME)));

    // Assert
    expect(parse(lines)).toEqual([
      expect.objectContaining({
        message: "invocation duplicate",
        outcome: "duplicate",
        idempotencyRecordStatus: "COMPLETED",
        businessKey: event.businessKey,
        messageId: duplicate.messageId,
      }),
    ]);
  });

  it("logs a rejection as one WARN line with the error, and the next invocation does not inherit its keys", async () => {
    // Arrange
    const first = depositEvent();
    await captureOutput(() => fx.handler(first, lambdaContext(FUNCTION_NAME)));
    const { messageId: _dropped, ...withoutMessageId } = depositEvent();

    // Act
    const { error, lines } = await captureOutput(() => fx.handler(withoutMessageId, lambdaContext(FUNCTION_NAME)));

    // Assert
    expect(error).toMatchObject({ name: "PipelineRejected", cause: expect.objectContaining({ name: "ValidationError", field: "messageId" }) });
    const logs = parse(lines);
    expect(logs).toEqual([
      expect.objectContaining({
        level: "WARN",
        outcome: "rejected",
        businessKey: withoutMessageId.businessKey,
        error: expect.objectContaining({ name: "ValidationError", location: expect.any(String), stack: expect.any(String) }),
      }),
    ]);
    expect(logs[0]).not.toHaveProperty("messageId");
  });

  it("keeps the lines of overlapping invocations apart", async () => {
    // Arrange
    const events = [depositEvent(), depositEvent(), depositEvent()];

    // Act
    const { lines } = await captureOutput(() => Promise.all(events.map((e) => fx.handler(e, lambdaContext(FUNCTION_NAME)))));

    // Assert
    const byMessage = new Map(parse(lines).map((log) => [log.messageId, log]));
    expect(byMessage.size).toBe(events.length);
    for (const event of events) expect(byMessage.get(event.messageId)).toMatchObject({ businessKey: event.businessKey, outcome: "applied" });
  });

  it.each(["IDEMPOTENCY_TABLE_NAME", "EFFECTS_TABLE_NAME"])("fails at cold start naming a missing variable: %s (the wrapper's, the setup's)", (name) => {
    // Arrange
    const env = { ...depositEnv(fx.db.endpoint, TABLES), [name]: undefined };

    // Act / Assert
    expect(() => loadHandler(env)).toThrow(expect.objectContaining({ name: "ConfigurationError", variable: name, message: expect.stringContaining(`${name} is not set`) }));
  });
});
