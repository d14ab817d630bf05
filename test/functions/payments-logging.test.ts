import type { PaymentsHandler } from "../../examples/payments/functions/create-handler";
import { type Dynalite, startDynalite } from "../helpers/dynalite";
import { captureOutput } from "./support/capture-output";
import { paymentEvent, redelivery } from "./support/events";
import { lambdaContext } from "./support/lambda-context";
import { loadPaymentsHandler, paymentsEnv } from "./support/payments-env";
import { effectsTable, idempotencyTable } from "./support/tables";

const TABLES = { idempotency: "logging-idempotency", effects: "logging-effects" };

type LogLine = Record<string, unknown>;
const parse = (lines: string[]): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

describe("Function: payments handler logging and cold start", () => {
  let db: Dynalite;
  let handler: PaymentsHandler;
  let restoreEnv: () => void;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(idempotencyTable(TABLES.idempotency));
    await db.createTable(effectsTable(TABLES.effects));
    ({ handler, restore: restoreEnv } = loadPaymentsHandler({
      ...paymentsEnv(db.endpoint, TABLES),
      POWERTOOLS_LOG_LEVEL: "INFO",
    }));
  });

  afterAll(async () => {
    restoreEnv?.();
    await db?.stop();
  });

  it("writes one line per applied invocation with businessKey, operation, messageId, request id, outcome and charge", async () => {
    // Arrange
    const event = paymentEvent();
    const context = lambdaContext("payments-test");

    // Act
    const { error, result, lines } = await captureOutput(() => handler(event, context));

    // Assert
    expect(error).toBeUndefined();
    expect(parse(lines)).toEqual([
      expect.objectContaining({
        level: "INFO",
        message: "invocation applied",
        service: "payments",
        businessKey: event.businessKey,
        operation: "charge",
        messageId: event.messageId,
        function_request_id: context.awsRequestId,
        outcome: "applied",
        chargeId: result?.chargeId,
      }),
    ]);
  });

  it("logs a duplicate served from the stored record as one line with the duplicate's own messageId", async () => {
    // Arrange
    const event = paymentEvent();
    await captureOutput(() => handler(event, lambdaContext("payments-test")));
    const duplicate = redelivery(event);

    // Act
    const { lines } = await captureOutput(() => handler(duplicate, lambdaContext("payments-test")));

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
    const first = paymentEvent();
    await captureOutput(() => handler(first, lambdaContext("payments-test")));
    const { messageId: _dropped, ...withoutMessageId } = paymentEvent();

    // Act
    const { error, lines } = await captureOutput(() => handler(withoutMessageId, lambdaContext("payments-test")));

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
    const events = [paymentEvent(), paymentEvent(), paymentEvent()];

    // Act
    const { lines } = await captureOutput(() => Promise.all(events.map((e) => handler(e, lambdaContext("payments-test")))));

    // Assert
    const byMessage = new Map(parse(lines).map((log) => [log.messageId, log]));
    expect(byMessage.size).toBe(events.length);
    for (const event of events) expect(byMessage.get(event.messageId)).toMatchObject({ businessKey: event.businessKey, outcome: "applied" });
  });

  it("fails at cold start naming a missing variable", () => {
    // Arrange
    const env = { ...paymentsEnv(db.endpoint, TABLES), EFFECTS_TABLE_NAME: undefined };

    // Act / Assert
    expect(() => loadPaymentsHandler(env)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", message: expect.stringContaining("EFFECTS_TABLE_NAME") }),
    );
  });
});
