import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type ChargeStore, charge, downstreamIdempotencyKey } from "../../examples/payments/functions/charge";
import { type Dynalite, startDynalite } from "../helpers/dynalite";
import { readEffects } from "./support/effects";
import { effectsTable } from "./support/tables";

const TABLE = "charge-effects";
const NOW_MS = Date.parse("2025-03-01T10:00:00.000Z");

describe("Function: charge (downstream stand-in)", () => {
  let db: Dynalite;
  let store: ChargeStore;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(effectsTable(TABLE));
    store = {
      documentClient: DynamoDBDocumentClient.from(db.client),
      tableName: TABLE,
      retentionSeconds: 86_400,
      now: () => NOW_MS,
    };
  });

  afterAll(async () => {
    await db?.stop();
  });

  const request = (overrides: Partial<Parameters<typeof charge>[1]> = {}) => ({
    idempotencyKey: downstreamIdempotencyKey(`t1#o-${randomUUID().slice(0, 8)}`, "charge"),
    messageId: randomUUID(),
    amount: 1250,
    currency: "EUR",
    ...overrides,
  });

  it("derives the idempotency key from business key and operation", () => {
    // Arrange / Act
    const key = downstreamIdempotencyKey("t1#o-42", "charge");

    // Assert
    expect(key).toBe("t1#o-42#charge");
  });

  it("counts every call and applies once: two calls with one key give 2 CALL items, 1 CHARGE, the second replayed", async () => {
    // Arrange
    const first = request();
    const second = { ...first, messageId: randomUUID() };

    // Act
    const applied = await charge(store, first);
    const replayed = await charge(store, second);

    // Assert
    expect(applied).toMatchObject({ outcome: "applied", amount: 1250, currency: "EUR" });
    expect(replayed).toEqual({ ...applied, outcome: "replayed" });
    const effects = await readEffects(db.client, TABLE, first.idempotencyKey);
    expect(effects.charges).toEqual([
      expect.objectContaining({ chargeId: applied.chargeId, messageId: first.messageId, amount: 1250, currency: "EUR" }),
    ]);
    expect(effects.calls).toHaveLength(2);
    expect(effects.calls.map((call) => [call.messageId, call.outcome])).toEqual(
      expect.arrayContaining([
        [first.messageId, "applied"],
        [second.messageId, "replayed"],
      ]),
    );
  });

  it("writes CALL items as CALL#<ISO time>#<call id> with expiresAt in epoch seconds from the retention", async () => {
    // Arrange
    const call = request();

    // Act
    await charge(store, call);

    // Assert
    const effects = await readEffects(db.client, TABLE, call.idempotencyKey);
    const expiresAt = Math.floor(NOW_MS / 1000) + 86_400;
    expect(effects.calls).toEqual([
      expect.objectContaining({ sk: expect.stringMatching(/^CALL#2025-03-01T10:00:00\.000Z#[0-9a-f-]{36}$/), expiresAt }),
    ]);
    expect(effects.charges).toEqual([expect.objectContaining({ appliedAt: "2025-03-01T10:00:00.000Z", expiresAt })]);
  });

  it.each([
    ["amount", { amount: 1300 }],
    ["currency", { currency: "USD" }],
  ])("refuses a different %s under the same key with DownstreamConflictError and keeps the charge", async (_field, change) => {
    // Arrange
    const first = request();
    const original = await charge(store, first);

    // Act
    const attempt = charge(store, { ...first, ...change, messageId: randomUUID() });

    // Assert
    await expect(attempt).rejects.toMatchObject({
      name: "DownstreamConflictError",
      idempotencyKey: first.idempotencyKey,
    });
    const effects = await readEffects(db.client, TABLE, first.idempotencyKey);
    expect(effects.charges).toEqual([expect.objectContaining({ chargeId: original.chargeId, amount: 1250, currency: "EUR" })]);
    expect(effects.calls.map((call) => call.outcome).sort()).toEqual(["applied", "conflict"]);
  });
});
