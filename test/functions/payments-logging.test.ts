import type { PaymentsHandler } from "../../functions/payments/create-handler";
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

  it("puts businessKey, operation, messageId and the request id on every line of an invocation", async () => {
    // Arrange
    const event = paymentEvent();
    const context = lambdaContext("payments-test");

    // Act
    const { error, lines } = await captureOutput(() => handler(event, context));

    // Assert
    expect(error).toBeUndefined();
    const logs = parse(lines);
    expect(logs.map((log) => log.message)).toEqual(["downstream charge applied", "payment processed"]);
    for (const log of logs) {
      expect(log).toMatchObject({
        businessKey: event.businessKey,
        operation: "charge",
        messageId: event.messageId,
        function_request_id: context.awsRequestId,
        service: "payments",
      });
    }
  });

  it("logs a duplicate served from the stored record with the duplicate's own messageId", async () => {
    // Arrange
    const event = paymentEvent();
    await captureOutput(() => handler(event, lambdaContext("payments-test")));
    const duplicate = redelivery(event);

    // Act
    const { lines } = await captureOutput(() => handler(duplicate, lambdaContext("payments-test")));

    // Assert
    const logs = parse(lines);
    expect(logs.map((log) => log.message)).toEqual([
      "duplicate invocation: returning the stored result",
      "payment processed",
    ]);
    for (const log of logs) expect(log).toMatchObject({ businessKey: event.businessKey, messageId: duplicate.messageId });
  });

  it("removes the keys after an invocation: the next one does not inherit them", async () => {
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
      expect.objectContaining({ level: "WARN", businessKey: withoutMessageId.businessKey }),
    ]);
    expect(logs[0]).not.toHaveProperty("messageId");
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
