import { idempotencyRecordId } from "../src/idempotency";
import { effectKey } from "@effectively-once/contract";
import { FUNCTION_NAME, depositEvent, redelivery } from "./support/deposit";
import { depositHandlerFixture } from "./support/deposit-fixture";
import { readEffects, readIdempotencyRecords } from "./support/effects";
import { lambdaContext } from "./support/lambda-context";

const TABLES = { idempotency: "handler-idempotency", effects: "handler-effects" };

describe("Function: createPipelineHandler (a handler module, real Powertools, dynalite)", () => {
  const fx = depositHandlerFixture(TABLES);

  const effectsOf = (businessKey: string, operation = "deposit") => readEffects(fx.db.client, TABLES.effects, effectKey(businessKey, operation));
  const recordOf = async (businessKey: string, operation = "deposit") => {
    const id = idempotencyRecordId(businessKey, operation);
    return (await readIdempotencyRecords(fx.db.client, TABLES.idempotency)).find((record) => record.id === id);
  };

  it("applies a first delivery once and stores a COMPLETED record under <function>#md5([key, operation])", async () => {
    // Arrange
    const event = depositEvent();

    // Act
    const result = await fx.handler(event, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(result).toEqual({ depositId: expect.stringMatching(/^dep_/), outcome: "applied", amount: 1250 });
    const record = await recordOf(event.businessKey);
    expect(record).toMatchObject({ status: "COMPLETED", validation: expect.any(String) });
    expect(record?.data).toEqual(result);
    const nowSeconds = Date.now() / 1000;
    expect(record?.expiration).toBeGreaterThan(nowSeconds + 3590);
    expect(record?.expiration).toBeLessThan(nowSeconds + 3610);
    const effects = await effectsOf(event.businessKey);
    expect(effects.effects).toHaveLength(1);
    expect(effects.calls).toHaveLength(1);
  });

  it("returns the stored result for a duplicate without running the side effect again", async () => {
    // Arrange
    const event = depositEvent();
    const first = await fx.handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const second = await fx.handler(redelivery(event), lambdaContext(FUNCTION_NAME));

    // Assert
    expect(second).toEqual(first);
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.effects).toHaveLength(1);
  });

  it("rejects the same key with another amount with IdempotencyValidationError and leaves the effect alone", async () => {
    // Arrange
    const event = depositEvent();
    await fx.handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const attempt = fx.handler(redelivery(event, { amount: 9999 }), lambdaContext(FUNCTION_NAME));

    // Assert
    // By name: the module was loaded in its own registry, and Step Functions also matches on the name.
    await expect(attempt).rejects.toHaveProperty("name", "IdempotencyValidationError");
    const effects = await effectsOf(event.businessKey);
    expect(effects.calls).toHaveLength(1);
    expect(effects.effects).toEqual([expect.objectContaining({ amount: 1250 })]);
  });

  it("treats a change outside PAYLOAD_FIELDS as the same payload (stored result, no new call)", async () => {
    // Arrange
    const event = depositEvent();
    const first = await fx.handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const second = await fx.handler(redelivery(event, { note: "resent by the producer" }), lambdaContext(FUNCTION_NAME));

    // Assert
    expect(second).toEqual(first);
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(1);
  });

  it("keys on business key AND operation: another operation on the same key runs on its own", async () => {
    // Arrange
    const event = depositEvent();
    await fx.handler(event, lambdaContext(FUNCTION_NAME));

    // Act
    const other = await fx.handler({ ...redelivery(event), operation: "reverse" }, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(other).toMatchObject({ outcome: "applied" });
    expect((await effectsOf(event.businessKey, "deposit")).calls).toHaveLength(1);
    expect((await effectsOf(event.businessKey, "reverse")).calls).toHaveLength(1);
    expect(await recordOf(event.businessKey, "reverse")).toMatchObject({ status: "COMPLETED" });
  });

  it("rejects a malformed event with ValidationError before writing any idempotency record", async () => {
    // Arrange
    const event = depositEvent();
    const bad = { ...event, payload: { ...event.payload, amount: "1250" } };

    // Act
    const attempt = fx.handler(bad, lambdaContext(FUNCTION_NAME));

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "PipelineRejected", cause: expect.objectContaining({ name: "ValidationError", field: "payload.amount" }) });
    expect(await recordOf(event.businessKey)).toBeUndefined();
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(0);
  });

  it("reports a PermanentError subclass with a name of its own, and the journal's refusal, as PipelineRejected", async () => {
    // Arrange
    const unlucky = depositEvent({ payload: { accountId: "acc-1", ref: "r-unlucky", amount: 13 } });
    const tooLarge = depositEvent({ payload: { accountId: "acc-1", ref: "r-large", amount: 1_000_000 } });

    // Act
    const unluckyAttempt = fx.handler(unlucky, lambdaContext(FUNCTION_NAME));
    const tooLargeAttempt = fx.handler(tooLarge, lambdaContext(FUNCTION_NAME));

    // Assert: the reserved name the construct's permanentErrors hold by default, the class in the message.
    await expect(unluckyAttempt).rejects.toMatchObject({ name: "PipelineRejected", message: "UnluckyAmountError: 13 is refused", cause: expect.objectContaining({ name: "UnluckyAmountError" }) });
    await expect(tooLargeAttempt).rejects.toMatchObject({ name: "PipelineRejected", message: "DownstreamRefusedError: above the deposit limit" });
    expect(await recordOf(unlucky.businessKey)).toBeUndefined();
    expect((await effectsOf(tooLarge.businessKey)).calls.map((c) => c.outcome)).toEqual(["refused"]);
  });
});
