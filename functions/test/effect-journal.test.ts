import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { EffectJournal } from "../src";
import { effectKey } from "@effectively-once/contract";
import { type Dynalite, startDynalite } from "@effectively-once/testing";
import { readEffects } from "./support/effects";
import { effectsTable } from "./support/tables";

const TABLE = "journal-effects";
const NOW_MS = Date.parse("2025-03-01T10:00:00.000Z");

describe("Class: EffectJournal", () => {
  let db: Dynalite;
  let journal: EffectJournal;

  beforeAll(async () => {
    db = await startDynalite();
    await db.createTable(effectsTable(TABLE));
    journal = new EffectJournal({ documentClient: DynamoDBDocumentClient.from(db.client), tableName: TABLE, retentionSeconds: 86_400, now: () => NOW_MS });
  });

  afterAll(async () => {
    await db?.stop();
  });

  const request = (overrides: { fingerprint?: string; amount?: number } = {}) => ({
    effectKey: effectKey(`["a1","r-${randomUUID().slice(0, 8)}"]`, "deposit"),
    messageId: randomUUID(),
    fingerprint: overrides.fingerprint ?? "f-1250",
    attributes: { depositId: `dep_${randomUUID()}`, amount: overrides.amount ?? 1250 },
  });

  describe("Method: apply", () => {
    it("counts every call and applies once: two calls with one key give 2 CALL items, 1 EFFECT, the second replayed", async () => {
      // Arrange
      const first = request();
      const second = { ...request(), effectKey: first.effectKey };

      // Act
      const applied = await journal.apply(first);
      const replayed = await journal.apply(second);

      // Assert
      expect(applied).toEqual({ outcome: "applied", attributes: first.attributes, appliedAt: "2025-03-01T10:00:00.000Z" });
      expect(replayed).toEqual({ ...applied, outcome: "replayed" });
      const items = await readEffects(db.client, TABLE, first.effectKey);
      expect(items.effects).toEqual([expect.objectContaining({ ...first.attributes, messageId: first.messageId, fingerprint: "f-1250" })]);
      expect(items.calls.map((call) => [call.messageId, call.outcome])).toEqual(
        expect.arrayContaining([
          [first.messageId, "applied"],
          [second.messageId, "replayed"],
        ]),
      );
      expect(items.calls).toHaveLength(2);
    });

    it("writes CALL items as CALL#<ISO time>#<call id> with expiresAt in epoch seconds from the retention", async () => {
      // Arrange
      const call = request();

      // Act
      await journal.apply(call);

      // Assert
      const items = await readEffects(db.client, TABLE, call.effectKey);
      const expiresAt = Math.floor(NOW_MS / 1000) + 86_400;
      expect(items.calls).toEqual([expect.objectContaining({ sk: expect.stringMatching(/^CALL#2025-03-01T10:00:00\.000Z#[0-9a-f-]{36}$/), expiresAt })]);
      expect(items.effects).toEqual([expect.objectContaining({ sk: "EFFECT", appliedAt: "2025-03-01T10:00:00.000Z", expiresAt })]);
    });

    it("refuses another fingerprint under the same key with DownstreamConflictError naming both, and keeps the effect", async () => {
      // Arrange
      const first = request();
      await journal.apply(first);

      // Act
      const attempt = journal.apply({ ...request({ fingerprint: "f-1300", amount: 1300 }), effectKey: first.effectKey });

      // Assert
      await expect(attempt).rejects.toMatchObject({
        name: "DownstreamConflictError",
        idempotencyKey: first.effectKey,
        message: expect.stringMatching(/holds .*"amount":1250.* this call asked for .*"amount":1300/),
      });
      const items = await readEffects(db.client, TABLE, first.effectKey);
      expect(items.effects).toEqual([expect.objectContaining(first.attributes)]);
      expect(items.calls.map((call) => call.outcome).sort()).toEqual(["applied", "conflict"]);
    });

    it("refuses an attribute named like the journal's own with a permanent error, writing nothing", async () => {
      // Arrange
      const call = { ...request(), attributes: { fingerprint: "mine" } };

      // Act / Assert
      await expect(journal.apply(call)).rejects.toMatchObject({ name: "PermanentError", message: expect.stringContaining('"fingerprint" is the journal\'s own') });
      expect((await readEffects(db.client, TABLE, call.effectKey)).calls).toHaveLength(0);
    });
  });

  describe("Method: refuse", () => {
    it("records a refused call and throws DownstreamRefusedError with the reason, applying nothing", async () => {
      // Arrange
      const call = request();

      // Act
      const attempt = journal.refuse(call, "above the limit");

      // Assert
      await expect(attempt).rejects.toMatchObject({ name: "DownstreamRefusedError", message: "above the limit" });
      const items = await readEffects(db.client, TABLE, call.effectKey);
      expect(items.effects).toHaveLength(0);
      expect(items.calls.map((c) => c.outcome)).toEqual(["refused"]);
    });
  });
});
