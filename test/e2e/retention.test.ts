/**
 * The retention window: within it, the same key with another payload is a conflict; after it, the same key is
 * processed again, whether or not TTL has deleted the old items yet. The smallest window the construct allows
 * (retention = message retention = 60 s) means scenario 12 waits about a minute of real time, so it has a file
 * (and a jest worker) of its own. Scenario 5 runs on every target.
 */
import { waitFor } from "../helpers/wait-for";
import { readIdempotencyRecord, readLedger } from "./support/observe";
import { e2eSuite } from "./support/suite";
import { Capability } from "./support/target";

const RETENTION_SECONDS = 60;

const suite = e2eSuite("retention", { overrides: { retentionSeconds: RETENTION_SECONDS, messageRetentionSeconds: RETENTION_SECONDS } });

suite.scenario(
  { id: "s5", title: "5. the same key with a different payload is not applied and is quarantined as payload-mismatch" },
  async ({ tenant, payment, publish, settle }) => {
    const [first] = await publish([payment("o1", { amount: 1250 })]);
    expect((await settle([first])).fates).toEqual({ [first.messageId]: "applied" });

    // Another amount under the same key, and the first payload again with its fields in another order.
    const [changed, reordered] = await publish([payment("o1", { amount: 9900 }), { currency: "EUR", amount: 1250, orderId: "o1", tenantId: tenant }]);
    const settled = await settle([first, changed, reordered]);

    expect(settled.fates).toEqual({
      [first.messageId]: "applied",
      [changed.messageId]: "quarantined:payload-mismatch",
      [reordered.messageId]: "duplicate",
    });
    expect(settled.effects[first.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    expect(settled.downstream[first.key!].charge).toMatchObject({ amount: 1250, messageId: first.messageId });
    expect(settled.dlq).toEqual([expect.objectContaining({ reason: "payload-mismatch", businessKey: first.key, body: changed.body })]);
    expect(settled.dlq[0].detail).toContain(first.messageId);
  },
);

suite.scenario(
  {
    id: "s12",
    title: "12. after the retention window the same key is processed again, and the TTL sweeper removes expired ledger items",
    needs: [Capability.ShortRetention],
    localTimeoutMs: 150_000,
  },
  async ({ target, payment, publish, settle }) => {
    expect(target.retention!.retentionSeconds).toBe(RETENTION_SECONDS);
    const [a1, b1] = await publish([payment("a"), payment("b")]);
    const first = await settle([a1, b1]);
    expect(first.fates).toEqual({ [a1.messageId]: "applied", [b1.messageId]: "applied" });
    const ledgerA = (await readLedger(target, a1.key!))!;
    expect(Number(ledgerA.expiresAt) - Number(ledgerA.completedAt)).toBe(RETENTION_SECONDS);

    // Every layer remembers the key for the same window, give or take a second (Powertools rounds its expiry,
    // the ledger floors it): wait (deadline, no fixed sleep) until all of them have expired, in epoch seconds.
    const expiries: number[] = [];
    for (const message of [a1, b1]) {
      expiries.push(Number((await readLedger(target, message.key!))!.expiresAt));
      expiries.push(Number((await readIdempotencyRecord(target, message.key!))!.expiration));
      const { charge, calls } = first.downstream[message.key!];
      expiries.push(...[charge!, ...calls].map((item) => Number(item.expiresAt)));
    }
    const lastExpiry = Math.max(...expiries);
    expect(lastExpiry).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + RETENTION_SECONDS + 1);
    await waitFor(() => Math.floor(Date.now() / 1000) > lastExpiry, { timeoutMs: (RETENTION_SECONDS + 30) * 1000, intervalMs: 250, message: "the retention window passed" });

    // a: TTL deletion is lazy, so the expired items are still there when the key comes back. The claim
    // condition checks expiry itself: the key is claimed and processed again, by the new message.
    expect(await readLedger(target, a1.key!)).toMatchObject({ owner: a1.messageId });
    const [a2] = await publish([payment("a")]);
    const again = await settle([a1, a2]);
    expect(again.fates).toEqual({ [a1.messageId]: "applied", [a2.messageId]: "replayed-by-downstream" });
    expect(await readLedger(target, a1.key!)).toMatchObject({ status: "COMPLETED", owner: a2.messageId });
    // Powertools' record had expired too, so the function called the downstream again; the downstream's own
    // memory of the key (its CHARGE item, same retention, not yet swept) made that call a replay.
    expect(again.effects[a1.key!]).toEqual({ charges: 1, calls: 2, callOutcomes: { applied: 1, replayed: 1 } });
    expect(again.downstream[a1.key!].calls.find((call) => call.outcome === "replayed")).toMatchObject({ messageId: a2.messageId });
    expect(again.dlq).toEqual([]);

    // b: the sweeper deletes what expired, and only that: a's renewed ledger item stays.
    const deleted = await target.retention!.sweep();
    expect(deleted[target.names.ledgerTable]).toBeGreaterThanOrEqual(1);
    expect(await readLedger(target, b1.key!)).toBeUndefined();
    expect(await readIdempotencyRecord(target, b1.key!)).toBeUndefined();
    expect(await readLedger(target, a1.key!)).toMatchObject({ owner: a2.messageId });
    // With every layer's memory of b gone, b is a new charge.
    const [b2] = await publish([payment("b")]);
    const fresh = await settle([b2]);
    expect(fresh.fates).toEqual({ [b2.messageId]: "applied" });
    expect(fresh.effects[b1.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
  },
);
