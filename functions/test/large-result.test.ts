import { createHash } from "node:crypto";
import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createPipelineHandler, EffectJournal, effectKey, type PipelineHandlerOptions } from "../src";
import { idempotencyRecordId } from "../src/idempotency";
import { MAX_RESULT_BYTES } from "@effectively-once/contract";
import type { Dynalite } from "@effectively-once/testing";
import { type Deposit, depositEnv, depositEvent, FUNCTION_NAME, redelivery } from "./support/deposit";
import { readEffects, readIdempotencyRecords } from "./support/effects";
import { lambdaContext } from "./support/lambda-context";
import { startDepositDynalite } from "./support/tables";

const TABLES = { idempotency: "large-idempotency", effects: "large-effects" };

/** The amount of the event is the number of filler characters the side effect returns besides its receipt. */
const largeDeposit: PipelineHandlerOptions<Deposit, Record<string, unknown>, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  async sideEffect(event, { resources: journal }) {
    const receipt = await journal.apply({ effectKey: effectKey(event.businessKey, event.operation), messageId: event.messageId, fingerprint: event.payloadHash, attributes: {} });
    return { outcome: receipt.outcome, filler: "x".repeat(event.payload.amount) };
  },
};

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");
/** The JSON of `{"outcome":"applied","filler":"…"}` is 35 bytes besides the filler. */
const fillerFor = (bytes: number) => bytes - jsonBytes({ outcome: "applied", filler: "" });

describe("Function: createPipelineHandler with a side effect result above the bound (real Powertools, dynalite)", () => {
  let db: Dynalite;
  let logger: Logger;
  let warn: jest.SpyInstance;
  let handler: ReturnType<typeof createPipelineHandler<Deposit, Record<string, unknown>, EffectJournal>>;

  beforeAll(async () => {
    db = await startDepositDynalite(TABLES);
  });
  beforeEach(() => {
    // A new handler is a new cold start: each test sees its own first warning.
    logger = new Logger({ serviceName: "deposits", logLevel: "SILENT" });
    warn = jest.spyOn(logger, "warn");
    handler = createPipelineHandler(largeDeposit, { env: depositEnv(db.endpoint, TABLES), dynamoDb: db.client, logger });
  });
  afterAll(async () => db?.stop());

  const recordOf = async (businessKey: string) => {
    const id = idempotencyRecordId(businessKey, "deposit");
    return (await readIdempotencyRecords(db.client, TABLES.idempotency)).find((record) => record.id === id);
  };
  const effectsOf = (businessKey: string) => readEffects(db.client, TABLES.effects, effectKey(businessKey, "deposit"));
  const eventWithFiller = (characters: number) => {
    const event = depositEvent();
    return { ...event, payload: { ...event.payload, amount: characters } };
  };

  it.each([
    ["~300 KiB (above Step Functions' 256 KiB)", 300 * 1024],
    ["~500 KB (above DynamoDB's 400 KB item)", 500_000],
  ])("returns and stores a stand-in for a %s result: applied once, and a redelivery is a duplicate", async (_label, characters) => {
    // Arrange
    const event = eventWithFiller(characters);
    const full = JSON.stringify({ outcome: "applied", filler: "x".repeat(characters) });

    // Act
    const first = await handler(event, lambdaContext(FUNCTION_NAME));
    const second = await handler(redelivery(event), lambdaContext(FUNCTION_NAME));

    // Assert
    // Sizes first: a failure then prints a number, not the result.
    expect(jsonBytes(first)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const standIn = { truncated: true, bytes: Buffer.byteLength(full), sha256: createHash("sha256").update(full).digest("hex") };
    expect(first).toEqual(standIn);
    const record = await recordOf(event.businessKey);
    expect(record?.status).toBe("COMPLETED");
    expect(record?.data).toEqual(standIn);
    expect(second).toEqual(standIn);
    const effects = await effectsOf(event.businessKey);
    expect(effects.effects).toHaveLength(1);
    expect(effects.calls.map((call) => call.outcome)).toEqual(["applied"]);
  });

  it("keeps a result of exactly the bound as it is and replaces one a byte larger", async () => {
    // Arrange
    const atBound = eventWithFiller(fillerFor(MAX_RESULT_BYTES));
    const above = eventWithFiller(fillerFor(MAX_RESULT_BYTES + 1));

    // Act
    const kept = await handler(atBound, lambdaContext(FUNCTION_NAME));
    const replaced = await handler(above, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(jsonBytes(kept)).toBe(MAX_RESULT_BYTES);
    expect(kept).toMatchObject({ outcome: "applied" });
    expect(jsonBytes(replaced)).toBeLessThan(200);
    expect(replaced).toMatchObject({ truncated: true, bytes: MAX_RESULT_BYTES + 1 });
  });

  it("warns at the first oversize result of a cold start only", async () => {
    // Arrange
    const events = [eventWithFiller(2 * MAX_RESULT_BYTES), eventWithFiller(3 * MAX_RESULT_BYTES)];

    // Act
    for (const event of events) await handler(event, lambdaContext(FUNCTION_NAME));

    // Assert
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ businessKey: events[0]?.businessKey, resultBytes: expect.any(Number), maxResultBytes: MAX_RESULT_BYTES });
  });

  it("answers a duplicate whose stored result is above the bound (stored before the bound) with the stand-in", async () => {
    // Arrange: a small result, then its record's data made large, as a version without the bound stored it.
    const event = eventWithFiller(10);
    await handler(event, lambdaContext(FUNCTION_NAME));
    const large = { outcome: "applied", filler: "y".repeat(300 * 1024) };
    await DynamoDBDocumentClient.from(db.client).send(
      new UpdateCommand({
        TableName: TABLES.idempotency,
        Key: { id: idempotencyRecordId(event.businessKey, "deposit") },
        UpdateExpression: "SET #data = :data",
        ExpressionAttributeNames: { "#data": "data" },
        ExpressionAttributeValues: { ":data": large },
      }),
    );

    // Act
    const duplicate = await handler(redelivery(event), lambdaContext(FUNCTION_NAME));

    // Assert
    expect(jsonBytes(duplicate)).toBeLessThan(200);
    expect(duplicate).toEqual({ truncated: true, bytes: jsonBytes(large), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect((await effectsOf(event.businessKey)).calls).toHaveLength(1);
  });
});
