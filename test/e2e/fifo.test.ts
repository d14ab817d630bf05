/**
 * FIFO mode end to end: the payments stack with `fifo: true` (FIFO queues, the FIFO state machine), messages sent in
 * message groups (the body's tenant unless said otherwise). A group's messages are applied in send order, across a
 * retry that holds the rest of the group, and a poison message is set aside on its last receive while the rest of its
 * group is applied. Order is read from the downstream's own record (`appliedAt` of each charge), as a client can.
 */
import { chargeWrite } from "./support/fault-rules";
import type { Publishable, Sent } from "./support/publish";
import type { Settlement } from "./support/settle";
import { e2eSuite } from "./support/suite";
import { Capability } from "./support/target";

/** Attempts the AWS SDK v3 DynamoDB client makes per call by default (the function sets none). */
const SDK_ATTEMPTS = 4;

const suite = e2eSuite("fifo", {
  // FIFO runs a group's records one after another: 3 records of the suite's worst case (47 s each) within 150 s.
  overrides: { fifo: true, batchSize: 3, executionTimeoutSeconds: 150, visibilityTimeoutSeconds: 900 },
  faults: (names) => ({
    seed: "e2e-fifo",
    rules: [
      { service: "dynamodb", id: "f2-transient", action: "error", match: chargeWrite(names, suite.key("f2", "a2")), times: SDK_ATTEMPTS },
      { service: "dynamodb", id: "f3-poison", action: "error", match: chargeWrite(names, suite.key("f3", "p1")) },
    ],
  }),
});

/** Each group's applied messages, in the order the downstream applied them. */
function appliedOrder(settled: Settlement, sent: readonly Sent[]): string[] {
  const charges = sent.flatMap((m) => {
    const charge = m.key === undefined ? undefined : settled.downstream[m.key]?.effect;
    return charge && charge.messageId === m.messageId ? [{ id: m.messageId, at: String(charge.appliedAt) }] : [];
  });
  return charges.sort((a, b) => a.at.localeCompare(b.at)).map((c) => c.id);
}
const ids = (sent: readonly Sent[], ...at: number[]) => at.map((i) => sent[i].messageId);

suite.scenario({ id: "f1", title: "F1. each group's messages are applied in send order; groups run beside each other" }, async ({ payment, publish, settle, tenant }) => {
  const bodies: Publishable[] = ["a1", "b1", "a2", "a3", "b2", "a4"].map((order) => ({ raw: JSON.stringify(payment(order)), key: suite.key("f1", order), group: `${tenant}-${order[0]}` }));
  const sent = await publish(bodies);
  const settled = await settle(sent);
  expect(Object.values(settled.fates)).toEqual(Array(6).fill("applied"));
  const order = appliedOrder(settled, sent);
  expect(order.filter((id) => ids(sent, 0, 2, 3, 5).includes(id))).toEqual(ids(sent, 0, 2, 3, 5));
  expect(order.filter((id) => ids(sent, 1, 4).includes(id))).toEqual(ids(sent, 1, 4));
});

suite.scenario(
  { id: "f2", title: "F2. a failed message holds the rest of its group, which follows it in order once it is applied", needs: [Capability.Faults, Capability.Deliveries], localTimeoutMs: 60_000 },
  async ({ target, payment, publish, settle }) => {
    const sent = await publish(["a1", "a2", "a3"].map((order) => payment(order)));
    const settled = await settle(sent);
    expect(Object.values(settled.fates)).toEqual(["applied", "applied", "applied"]);
    expect(appliedOrder(settled, sent)).toEqual(ids(sent, 0, 1, 2));
    // a3 came back with a2, untried, and was received again.
    expect(target.deliveries!.of(sent[2].messageId).length).toBeGreaterThanOrEqual(2);
    expect(target.deliveries!.of(sent[2].messageId)[0]).toMatchObject({ result: "retry" });
  },
);

suite.scenario(
  { id: "f3", title: "F3. a poison message is quarantined as retries-exhausted on its last receive, and the rest of its group is applied", needs: [Capability.Faults], localTimeoutMs: 90_000 },
  async ({ payment, publish, settle }) => {
    const sent = await publish([payment("p1"), payment("p2")]);
    const settled = await settle(sent);
    expect(settled.fates[sent[0].messageId]).toBe("quarantined:retries-exhausted");
    expect(settled.fates[sent[1].messageId]).toBe("applied");
    expect(settled.dlq.map((d) => d.detail)).toEqual([expect.stringMatching(/^failed on its last receive \(5 of 5\): /)]);
  },
);
