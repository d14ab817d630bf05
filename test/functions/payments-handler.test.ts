import { downstreamIdempotencyKey } from "../../examples/payments/functions/charge";
import type { PaymentsHandler } from "../../examples/payments/functions/create-handler";
import { idempotencyRecordId } from "../../examples/payments/functions/idempotency";
import { type Dynalite, startDynalite } from "../helpers/dynalite";
import { readEffects, readIdempotencyRecords } from "./support/effects";
import { paymentEvent, redelivery } from "./support/events";
import { lambdaContext } from "./support/lambda-context";
import { loadPaymentsHandler, paymentsEnv } from "./support/payments-env";
import { effectsTable, idempotencyTable } from "./support/tables";

const TABLES = { idempotency: "handler-idempotency", effects: "handler-effects" };
const FUNCTION_NAME = "payments-test";

describe("Function: payments handler (deployed module, real Powertools, dynalite)", () => {
  let db: Dynalite;
  let handler: PaymentsHandler;
  let restoreEnv: () => void;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(idempotencyTable(TABLES.idempotency));
    await db.createTable(effectsTable(TABLES.effects));
    ({ handler, restore: restoreEnv } = loadPaymentsHandler(paymentsEnv(db.endpoint, TABLES)));
  });

  afterAll(async () => {
    restoreEnv?.();
    await db?.stop();
  });

  const effectsOf = (businessKey: string, operation = "charge") =>
    readEffects(db.client, TABLES.effects, downstreamIdempotencyKey(businessKey, operation));
  const recordOf = async (businessKey: string, operation = "charge") => {
    const id = idempotencyRecordId(FUNCTION_NAME, businessKey, operation);
    return (await readIdempotencyRecords(db.client, TABLES.idempotency)).find((record) => record.id === id);
  };

  it("applies a first delivery once and stores a COMPLETED record under <function>#md5([key, operation])", async () => {
    // Arrange
    const event = paymentEvent();

    // Act
    const result = await handler(event, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(result).toEqual({
      businessKey: event.businessKey,
      operation: "charge",
      chargeId: expect.stringMatching(/^ch_/),
      outcome: "applied",
      amount: 1250,
      currency: "EUR",
    });
    const record = await recordOf(event.businessKey);
    expect(record).toMatchObject({ status: "COMPLETED", validation: expect.any(String) });
    expect(record?.data).toEqual(result);
    const nowSeconds = Date.now() / 1000;
    expect(record?.expiration).toBeGreaterThan(nowSeconds + 3590);
    expect(record?.expiration).toBeLessThan(nowSeconds + 3610);
    const effects = await effectsOf(event.businessKey);
    expect(effects.charges).toHaveLength(1);
    expect(effects.calls).toHaveLength(1);
  });

  it("returns the stored result for a duplicate without calling the downstream again", async () => {
    // Arrange
    const event = paymentEvent();
    const first = await handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const second = await handler(redelivery(event), lambdaContext(FUNCTION_NAME));

    // Assert
    expect(second).toEqual(first);
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.applied).toHaveLength(1);
    expect(effects.charges).toHaveLength(1);
  });

  it("rejects the same key with a different amount with IdempotencyValidationError and leaves the effect alone", async () => {
    // Arrange
    const event = paymentEvent();
    await handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const attempt = handler(redelivery(event, { amount: 9999 }), lambdaContext(FUNCTION_NAME));

    // Assert
    // By name: the module was loaded in its own registry, and Step Functions also matches on the name.
    await expect(attempt).rejects.toHaveProperty("name", "IdempotencyValidationError");
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.charges).toEqual([expect.objectContaining({ amount: 1250, currency: "EUR" })]);
  });

  it("treats a change outside PAYLOAD_FIELDS as the same payload (stored result, no new call)", async () => {
    // Arrange
    const event = paymentEvent();
    const first = await handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const second = await handler(redelivery(event, { note: "resent by the producer" }), lambdaContext(FUNCTION_NAME));

    // Assert
    expect(second).toEqual(first);
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(1);
  });

  it("keys on business key AND operation: another operation on the same key runs on its own", async () => {
    // Arrange
    const event = paymentEvent();
    await handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const other = await handler({ ...redelivery(event), operation: "capture" }, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(other).toMatchObject({ operation: "capture", outcome: "applied" });
    expect((await effectsOf(event.businessKey, "charge")).calls).toHaveLength(1);
    expect((await effectsOf(event.businessKey, "capture")).calls).toHaveLength(1);
    expect(await recordOf(event.businessKey, "capture")).toMatchObject({ status: "COMPLETED" });
  });

  it("rejects a malformed event with ValidationError before writing any idempotency record", async () => {
    // Arrange
    const event = paymentEvent();
    const bad = { ...event, payload: { ...event.payload, currency: "euro" } };

    // Act
    const attempt = handler(bad, lambdaContext(FUNCTION_NAME));

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "ValidationError", field: "payload.currency" });
    expect(await recordOf(event.businessKey)).toBeUndefined();
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(0);
  });
});
