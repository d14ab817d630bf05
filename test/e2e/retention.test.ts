/**
 * The retention window, with the default windows (ledger and Powertools 14 days, source queue 4 days, DLQ
 * 14 days): within it, the same key with another payload is a conflict, and a copy redriven from the DLQ is
 * recognised; after it, the same key is processed again, whether or not TTL has deleted the old items yet.
 * Days pass on the local cloud's shared clock (`retention.advance`), not in real time. Scenario 5 runs on every
 * target; 12 and 15 need the clock.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { DlqReason } from "@effectively-once/contract";
import { redriveDlq, type OpsContext } from "@effectively-once/ops";
import { readIdempotencyRecord, readLedger } from "./support/observe";
import { e2eSuite } from "./support/suite";
import { Capability, type E2eTarget } from "./support/target";

const DAY_SECONDS = 24 * 3600;

const suite = e2eSuite("retention", {});

/** The operator CLI's context on the target's clients, reading the same clock as the cloud. */
function opsContext(target: E2eTarget): OpsContext {
  return {
    sqs: target.clients.sqs,
    dynamodb: target.clients.documents,
    outputs: {
      queue_url: target.names.queueUrl,
      dlq_url: target.names.dlqUrl,
      retention_seconds: target.retention!.retentionSeconds,
      message_retention_seconds: target.retention!.messageRetentionSeconds,
      // The redrive reads the key's claim: the ledger, its sort key and the payments stack's key expression.
      ledger_table_name: target.names.ledgerTable,
      operation: target.names.operation,
      business_key_expression: "[tenantId, orderId]",
      // ... and the function's Powertools record, the second witness of a charge.
      idempotency_table_name: target.names.idempotencyTable,
      function_name: target.names.functionName,
    },
    targetLabel: "the e2e target",
    now: () => Date.now(),
  };
}

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
    expect(settled.downstream[first.key!].effect).toMatchObject({ amount: 1250, messageId: first.messageId });
    expect(settled.dlq).toEqual([expect.objectContaining({ reason: "payload-mismatch", businessKey: first.key, body: changed.body })]);
    expect(settled.dlq[0].detail).toContain(first.messageId);
  },
);

suite.scenario(
  {
    id: "s12",
    title: "12. after the retention window the same key is processed again, and the TTL sweeper removes expired ledger items",
    needs: [Capability.Clock],
  },
  async ({ target, payment, publish, settle }) => {
    const retentionSeconds = target.retention!.retentionSeconds;
    expect(retentionSeconds).toBe(DEFAULTS.retentionSeconds);
    const [a1, b1] = await publish([payment("a"), payment("b")]);
    const first = await settle([a1, b1]);
    expect(first.fates).toEqual({ [a1.messageId]: "applied", [b1.messageId]: "applied" });
    const ledgerA = (await readLedger(target, a1.key!))!;
    expect(Number(ledgerA.expiresAt) - Number(ledgerA.completedAt)).toBe(retentionSeconds);

    // Every layer remembers the key for the same window, give or take a second (Powertools rounds its expiry,
    // the ledger floors it): move the clock until all of them have expired, in epoch seconds.
    const expiries: number[] = [];
    for (const message of [a1, b1]) {
      expiries.push(Number((await readLedger(target, message.key!))!.expiresAt));
      expiries.push(Number((await readIdempotencyRecord(target, message.key!))!.expiration));
      const { effect, calls } = first.downstream[message.key!];
      expiries.push(...[effect!, ...calls].map((item) => Number(item.expiresAt)));
    }
    const lastExpiry = Math.max(...expiries);
    expect(lastExpiry).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + retentionSeconds + 1);
    target.retention!.advance(lastExpiry + 1 - Math.floor(Date.now() / 1000));
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(lastExpiry);

    // a: TTL deletion is lazy, so the expired items are still there when the key comes back. The claim
    // condition checks expiry itself: the key is claimed and processed again, by the new message.
    expect(await readLedger(target, a1.key!)).toMatchObject({ owner: a1.messageId });
    const [a2] = await publish([payment("a")]);
    const again = await settle([a1, a2]);
    expect(again.fates).toEqual({ [a1.messageId]: "applied", [a2.messageId]: "replayed-by-downstream" });
    expect(await readLedger(target, a1.key!)).toMatchObject({ status: "COMPLETED", owner: a2.messageId });
    // Powertools' record had expired too, so the function called the downstream again; the downstream's own
    // memory of the key (its EFFECT item, same retention, not yet swept) made that call a replay.
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

suite.scenario(
  {
    id: "s15",
    title: "15. a copy redriven from the DLQ on day 10 is recognised as a duplicate: both layers still remember the key, and it is charged once",
    needs: [Capability.Clock],
  },
  async ({ target, payment, publish, settle }) => {
    // Day 0: applied. A copy of the same message ends in the DLQ the way the queue's redrive moves one (a second
    // delivery that failed on every receive): same body, and it keeps its original enqueue time.
    const [x1] = await publish([payment("x")]);
    expect((await settle([x1])).fates).toEqual({ [x1.messageId]: "applied" });
    await target.clients.sqs.send(new SendMessageCommand({ QueueUrl: target.names.dlqUrl, MessageBody: x1.body }));

    // Day 10 (9 days 23 h later): TTL has had days to delete what expired, as it would on AWS.
    target.retention!.advance(10 * DAY_SECONDS - 3600);
    await target.retention!.sweep();

    // The operator redrives it; the tool allows it (the ledger holds the key COMPLETED beyond the copy's last delivery) ...
    const result = await redriveDlq(opsContext(target), { reason: DlqReason.RetriesExhausted });
    expect(result.unsafe).toEqual([]);
    expect(result.moved).toHaveLength(1);
    const copy = { messageId: result.moved[0].newMessageId!, body: x1.body, key: x1.key };

    // ... and the pipeline recognises it: the ledger still holds the completed claim, nothing is charged again.
    const settled = await settle([x1, copy]);
    expect(settled.fates).toEqual({ [x1.messageId]: "applied", [copy.messageId]: "duplicate" });
    expect(settled.effects[x1.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    expect(settled.dlq).toEqual([]);
    expect(await readLedger(target, x1.key!)).toMatchObject({ status: "COMPLETED", owner: x1.messageId });
  },
);
