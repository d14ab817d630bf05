/**
 * Redelivery: the same payment published again after it was applied, and a message that reappears (its
 * visibility timeout "expired") while its first delivery is still in progress. Scenario 3 runs on every target.
 */
import { readLedger } from "./support/observe";
import { e2eSuite } from "./support/suite";
import { Capability } from "./support/target";

/** Every invocation of this cloud's function starts this late, so a record stays in progress long enough. */
const INVOKE_DELAY_MS = 1_500;

const suite = e2eSuite("redelivery", {
  // Only scenario 11's message reappears early; the delay is not keyable, so every invocation here gets it.
  expireVisibilityEarly: () => ({ seed: "e2e-redelivery", times: 1, bodyContains: `"${suite.tenant("s11")}"` }),
  faults: (names) => ({
    seed: "e2e-redelivery",
    rules: [{ service: "lambda", id: "slow-invoke", function: names.functionName, action: "delay", latencyMs: INVOKE_DELAY_MS }],
  }),
});

suite.scenario({ id: "s3", title: "3. a redelivery after completion is acknowledged as a duplicate" }, async ({ target, payment, publish, settle }) => {
  const [first] = await publish([payment("o1")]);
  expect((await settle([first])).fates).toEqual({ [first.messageId]: "applied" });

  const [again] = await publish([payment("o1")]);
  const settled = await settle([first, again]);

  expect(settled.fates).toEqual({ [first.messageId]: "applied", [again.messageId]: "duplicate" });
  expect(settled.effects[first.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
  expect(settled.dlq).toEqual([]);
  // The ledger still names the first message: the duplicate was answered from it, not re-claimed.
  expect(await readLedger(target, first.key!)).toMatchObject({ status: "COMPLETED", owner: first.messageId });
});

suite.scenario(
  { id: "s11", title: "11. a message reappearing while its first delivery is in progress is not applied twice", needs: [Capability.Faults, Capability.Deliveries] },
  async ({ target, payment, publish, settle }) => {
    const [message] = await publish([payment("o1")]);
    const settled = await settle([message]);

    expect(settled.fates).toEqual({ [message.messageId]: "applied" });
    // The second delivery found the first one's live claim and was retried; the downstream saw one call.
    expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    expect(target.faults!.injected()).toMatchObject({ "sqs.visibility-expired-early": 1 });
    const [first, second] = target.deliveries!.of(message.messageId);
    expect(second).toBeDefined();
    expect(second.receivedAt).toBeLessThan(first.completedAt!);
    expect(second.result).toBe("retry");
  },
);
