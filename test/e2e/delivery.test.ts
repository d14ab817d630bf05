/**
 * Delivery without faults: one message, the same message many times, duplicates inside one batch and across
 * concurrent batches. Runs on every target.
 */
import { readIdempotencyRecord, readLedger } from "./support/observe";
import type { Sent } from "./support/publish";
import type { Settlement } from "./support/settle";
import { e2eSuite } from "./support/suite";
import type { Delivery, E2eTarget } from "./support/target";
import { businessKeyText } from "@effectively-once/contract";

const suite = e2eSuite("delivery", {});

const sortedFates = (fates: Record<string, string>) => Object.values(fates).sort();

/**
 * The ledger names the message that applied the key: the duplicates never claimed it (with a broken claim
 * condition they would overwrite the claim, and Powertools alone would hide it from the effect counts).
 */
async function expectLedgerOwnedByApplier(target: E2eTarget, settled: Settlement, key: string): Promise<void> {
  const ledger = await readLedger(target, key);
  expect(ledger).toMatchObject({ status: "COMPLETED", owner: settled.downstream[key].effect!.messageId });
}

suite.scenario({ id: "s1", title: "1. one message is applied once, and its ledger item is bounded" }, async ({ target, payment, publish, settle }) => {
  const [message] = await publish([payment("o1")]);
  const settled = await settle([message]);

  expect(settled.fates).toEqual({ [message.messageId]: "applied" });
  expect(settled.effects).toEqual({ [message.key!]: { charges: 1, calls: 1, callOutcomes: { applied: 1 } } });
  const ledger = await readLedger(target, message.key!);
  expect(ledger).toMatchObject({ status: "COMPLETED", owner: message.messageId });
  // expiresAt is epoch seconds (DynamoDB TTL), in the future and no further away than a year.
  const nowSeconds = Date.now() / 1000;
  expect(Number(ledger!.expiresAt)).toBeGreaterThan(nowSeconds);
  expect(Number(ledger!.expiresAt)).toBeLessThan(nowSeconds + 366 * 24 * 3600);
  expect(await readIdempotencyRecord(target, message.key!)).toMatchObject({ status: "COMPLETED" });
});

suite.scenario({ id: "s2", title: "2. the same message sent 5 times is applied once, with 4 duplicates" }, async ({ target, payment, publish, settle }) => {
  const body = payment("o1");
  const sent: Sent[] = [];
  for (let i = 0; i < 5; i += 1) sent.push(...(await publish([body])));
  const settled = await settle(sent);

  expect(sortedFates(settled.fates)).toEqual(["applied", "duplicate", "duplicate", "duplicate", "duplicate"]);
  expect(settled.effects).toEqual({ [sent[0].key!]: { charges: 1, calls: 1, callOutcomes: { applied: 1 } } });
  expect(settled.dlq).toEqual([]);
  await expectLedgerOwnedByApplier(target, settled, sent[0].key!);
});

suite.scenario({ id: "s4a", title: "4a. ten copies in one batch: applied once, nine duplicates, none lost" }, async ({ target, payment, publish, settle }) => {
  const sent = await publish(Array.from({ length: 10 }, () => payment("o1")));
  const settled = await settle(sent);

  expect(sortedFates(settled.fates)).toEqual(["applied", ...Array<string>(9).fill("duplicate")]);
  expect(settled.effects).toEqual({ [sent[0].key!]: { charges: 1, calls: 1, callOutcomes: { applied: 1 } } });
  await expectLedgerOwnedByApplier(target, settled, sent[0].key!);
  if (target.deliveries) {
    // The copies really were processed side by side: their first receipt was one batch.
    const first = target.deliveries.of(sent[0].messageId)[0];
    expect([...first.batch].sort()).toEqual(sent.map((m) => m.messageId).sort());
  }
});

suite.scenario(
  { id: "s4b", title: "4b. copies spread over two concurrent batches: each key applied once, none lost" },
  async ({ target, tenant, payment, publish, settle }) => {
    const orders = ["o1", "o2", "o3", "o4", "o5"];
    const half = () => orders.flatMap((order) => [payment(order), payment(order)]);
    const sent = (await Promise.all([publish(half()), publish(half())])).flat();
    const settled = await settle(sent);

    for (const order of orders) {
      const key = businessKeyText([tenant, order]);
      const fates = sent.filter((m) => m.key === key).map((m) => settled.fates[m.messageId]);
      expect(fates.sort()).toEqual(["applied", "duplicate", "duplicate", "duplicate"]);
      expect(settled.effects[key]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
      await expectLedgerOwnedByApplier(target, settled, key);
    }
    if (target.deliveries) {
      // Two batches holding copies of the same keys ran at the same time.
      const firsts = sent.map((m) => target.deliveries!.of(m.messageId)[0]);
      const batches = [...new Map(firsts.map((d) => [d.batchId, d])).values()];
      expect(batches.length).toBeGreaterThanOrEqual(2);
      expect(batches.some((a) => batches.some((b) => a !== b && overlap(a, b)))).toBe(true);
    }
  },
);

function overlap(a: Delivery, b: Delivery): boolean {
  return a.receivedAt <= (b.completedAt ?? Infinity) && b.receivedAt <= (a.completedAt ?? Infinity);
}
