import type { PipelineHandler } from "../../functions";
import { type Dynalite, startDynalite } from "../helpers/dynalite";
import { captureOutput } from "./support/capture-output";
import { type DepositResult, FUNCTION_NAME, depositEnv, depositEvent, redelivery } from "./support/deposit";
import { lambdaContext } from "./support/lambda-context";
import { loadHandler } from "./support/load-handler";
import { effectsTable, idempotencyTable } from "./support/tables";

const TABLES = { idempotency: "logging-idempotency", effects: "logging-effects" };

type LogLine = Record<string, unknown>;
const parse = (lines: string[]): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

describe("Function: createPipelineHandler logging and cold start", () => {
  let db: Dynalite;
  let handler: PipelineHandler<DepositResult>;
  let restoreEnv: () => void;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(idempotencyTable(TABLES.idempotency));
    await db.createTable(effectsTable(TABLES.effects));
    ({ handler, restore: restoreEnv } = loadHandler({
      ...depositEnv(db.endpoint, TABLES),
      POWERTOOLS_LOG_LEVEL: "INFO",
    }));
  });

  afterAll(async () => {
    restoreEnv?.();
    await db?.stop();
  });

  it("writes one line per applied invocation with businessKey, operation, messageId, request id, outcome and what the side effect noted", async () => {
    // Arrange
    const event = depositEvent();
    const context = lambdaContext(FUNCTION_NAME);

    // Act
    const { error, result, lines } = await captureOutput(() => handler(event, context));

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
        depositId: result?.depositId,
      }),
    ]);
  });

  it("logs a duplicate served from the stored record as one line with the duplicate's own messageId", async () => {
    // Arrange
    const event = depositEvent();
    await captureOutput(() => handler(event, lambdaContext(FUNCTION_NAME)));
    const duplicate = redelivery(event);

    // Act
    const { lines } = await captureOutput(() => handler(duplicate, lambdaContext(FUNCTION_NAME)));

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
    await captureOutput(() => handler(first, lambdaContext(FUNCTION_NAME)));
    const { messageId: _dropped, ...withoutMessageId } = depositEvent();

    // Act
    const { error, lines } = await captureOutput(() => handler(withoutMessageId, lambdaContext(FUNCTION_NAME)));

    // Assert
    expect(error).toMatchObject({ name: "ValidationError", field: "messageId" });
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
    const { lines } = await captureOutput(() => Promise.all(events.map((e) => handler(e, lambdaContext(FUNCTION_NAME)))));

    // Assert
    const byMessage = new Map(parse(lines).map((log) => [log.messageId, log]));
    expect(byMessage.size).toBe(events.length);
    for (const event of events) expect(byMessage.get(event.messageId)).toMatchObject({ businessKey: event.businessKey, outcome: "applied" });
  });

  it.each(["IDEMPOTENCY_TABLE_NAME", "EFFECTS_TABLE_NAME"])("fails at cold start naming a missing variable: %s (the wrapper's, the setup's)", (name) => {
    // Arrange
    const env = { ...depositEnv(db.endpoint, TABLES), [name]: undefined };

    // Act / Assert
    expect(() => loadHandler(env)).toThrow(expect.objectContaining({ name: "ConfigurationError", variable: name, message: expect.stringContaining(`${name} is not set`) }));
  });
});
