/**
 * Failures: bad input, downstream transient and permanent errors, crashes after the side effect, a timed-out
 * execution, partial batch failure and a poison message. One local cloud; every fault rule is keyed to one
 * scenario's business key, so the scenarios cannot disturb each other. Only 6 and 8 need no fault injection.
 */
import { waitFor } from "@effectively-once/testing";
import { DlqReason } from "@effectively-once/contract";
import { callWrite, chargeWrite, ledgerComplete } from "./support/fault-rules";
import { readIdempotencyRecord, readLedger } from "./support/observe";
import { e2eSuite } from "./support/suite";
import { Capability } from "./support/target";

const FAULTS = [Capability.Faults, Capability.Deliveries];
/** Attempts the AWS SDK v3 DynamoDB client makes per call by default (the function sets none). */
const SDK_ATTEMPTS = 4;

const suite = e2eSuite("failures", {
  // Short enough for scenarios 9 (the Powertools in-progress expiry is the function timeout) and 10 (the
  // execution timeout) to end in seconds; single-message batches keep them clear of spurious timeouts. No Lambda
  // service-error or ledger retries keep the worst batch invoked once (claim phase: quarantine 3; batch invoke 10 s
  // Init + 3 s; settle: invoke alone 13 + quarantine 3; 2 s for the fate metrics call: 3 + 13 + 16 + 2 = 34 s) within
  // 34 s; the lease covers two invocations of 3 s.
  overrides: {
    executionTimeoutSeconds: 34,
    visibilityTimeoutSeconds: 204,
    leaseSeconds: 6,
    function: { timeoutSeconds: 3 },
    lambdaRetries: 0,
    ledgerRetry: { intervalSeconds: 1, maxAttempts: 0, backoffRate: 1 },
  },
  faults: (names) => ({
    seed: "e2e-failures",
    rules: [
      // The function's DynamoDB client makes 4 attempts (the AWS SDK v3 default for DynamoDB): 4 errors fail
      // exactly one invocation.
      { service: "dynamodb", id: "s7-transient", action: "error", match: chargeWrite(names, suite.key("s7", "o1")), times: SDK_ATTEMPTS },
      { service: "lambda", id: "s9-crash-after-charge", function: names.functionName, action: "crash", when: "after", sideEffect: chargeWrite(names, suite.key("s9", "o1")), times: 1 },
      { service: "lambda", id: "s9-crash-after-call", function: names.functionName, action: "crash", when: "after", sideEffect: callWrite(names, suite.key("s9", "o2")), times: 1 },
      { service: "dynamodb", id: "s10-slow-complete", action: "latency", latencyMs: 35_000, match: ledgerComplete(names, suite.key("s10", "o2")), times: 1 },
      { service: "dynamodb", id: "s13-transient", action: "error", match: chargeWrite(names, suite.key("s13", "o3")), times: SDK_ATTEMPTS },
      { service: "dynamodb", id: "s14-poison", action: "error", match: chargeWrite(names, suite.key("s14", "poison")) },
    ],
  }),
});

suite.scenario(
  { id: "s6", title: "6. invalid JSON and missing key fields are quarantined as invalid-message; the rest of the batch is applied" },
  async ({ target, tenant, payment, publish, settle }) => {
    const invalid = [
      `this is not JSON (${tenant})`,
      JSON.stringify({ tenantId: tenant, amount: 1250, currency: "EUR" }),
      JSON.stringify({ tenantId: tenant, orderId: "", amount: 1250, currency: "EUR" }),
    ];
    const valid = [payment("o1"), payment("o2"), payment("o3")];
    const sent = await publish([invalid[0], valid[0], invalid[1], valid[1], invalid[2], valid[2]]);
    const settled = await settle(sent);

    const expected = Object.fromEntries(sent.map((m) => [m.messageId, m.key ? "applied" : "quarantined:invalid-message"]));
    expect(settled.fates).toEqual(expected);
    for (const key of sent.flatMap((m) => (m.key ? [m.key] : []))) {
      expect(settled.effects[key]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    }
    // The DLQ holds each body unchanged, with the reason, the original id, a detail and no business key.
    for (const message of sent.filter((m) => !m.key)) {
      const entry = settled.dlq.find((e) => e.originalMessageId === message.messageId);
      expect(entry).toMatchObject({ body: message.body, reason: "invalid-message", businessKey: undefined });
      expect(entry!.detail).toEqual(expect.any(String));
    }
    if (target.deliveries) {
      // One batch held all six, and every valid record was deleted on that first delivery.
      for (const message of sent) {
        const [first, ...again] = target.deliveries.of(message.messageId);
        expect(first.batch).toHaveLength(6);
        expect(first.result).toBe("acknowledged");
        expect(again).toEqual([]);
      }
    }
  },
);

suite.scenario(
  { id: "s7", title: "7. a transient downstream failure is retried and applied once", needs: FAULTS },
  async ({ target, payment, publish, settle }) => {
    const [message] = await publish([payment("o1")]);
    const settled = await settle([message]);

    expect(settled.fates).toEqual({ [message.messageId]: "applied" });
    // The failed call never wrote its charge or its CALL item; the retry is the one call that counts.
    expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
    expect(target.faults!.injected()).toMatchObject({ "dynamodb.error": SDK_ATTEMPTS });
    expect(target.deliveries!.of(message.messageId).map((d) => d.result)).toEqual(["retry", "acknowledged"]);
  },
);

suite.scenario(
  { id: "s8", title: "8. a permanent downstream failure releases the claim and is quarantined as rejected" },
  async ({ target, payment, publish, settle }) => {
    const [message] = await publish([payment("o1", { currency: "XXX" })]);
    const settled = await settle([message]);

    expect(settled.fates).toEqual({ [message.messageId]: "quarantined:rejected" });
    expect(settled.dlq).toEqual([expect.objectContaining({ reason: "rejected", businessKey: message.key, body: message.body })]);
    // The function's error name and message, never its stack trace.
    expect(settled.dlq[0].detail).toMatch(/^PipelineRejected: DownstreamRefusedError: downstream refuses charges in XXX/);
    expect(settled.dlq[0].detail).not.toMatch(/\bat .+:\d+|"trace"|stack/);
    expect(settled.effects[message.key!]).toEqual({ charges: 0, calls: 1, callOutcomes: { refused: 1 } });
    // Released: the ledger holds nothing for the key, so a corrected message (or a redrive) can claim it.
    expect(await readLedger(target, message.key!)).toBeUndefined();
    // The function validates before Powertools, so no idempotency record is left behind either.
    expect(await readIdempotencyRecord(target, message.key!)).toBeUndefined();
  },
);

suite.scenario(
  { id: "s9", title: "9. a function crash after the side effect: applied once, the downstream replays the retry", needs: FAULTS },
  async ({ target, payment, publish, settle }) => {
    // o1: the environment dies right after the EFFECT write, before the call's CALL item.
    // o2: it dies after the whole downstream call (EFFECT and CALL written), before Powertools saves COMPLETED.
    // One after the other: in one batch they would share one invocation, and o1's crash would end o2's call too.
    const [afterCharge] = await publish([payment("o1")]);
    const first = await settle([afterCharge]);
    const [afterCall] = await publish([payment("o2")]);
    const second = await settle([afterCall]);
    const settled = { fates: { ...first.fates, ...second.fates }, effects: { ...first.effects, ...second.effects } };

    expect(settled.fates).toEqual({ [afterCharge.messageId]: "applied", [afterCall.messageId]: "applied" });
    // Both keys: the Powertools record stayed INPROGRESS until its in-progress expiry (the dead invocation's
    // deadline, 3 s); retries until then got IdempotencyAlreadyInProgressError (transient: release, retry);
    // the next one ran the side effect again and the downstream, keyed by <businessKey>#charge, replayed it.
    // So the downstream saw two calls per key, and applied one charge.
    // o1: the first call died before recording itself, so only the replay has a CALL item.
    expect(settled.effects[afterCharge.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { replayed: 1 } });
    // o2: both calls are recorded.
    expect(settled.effects[afterCall.key!]).toEqual({ charges: 1, calls: 2, callOutcomes: { applied: 1, replayed: 1 } });
    expect(target.faults!.injected()).toMatchObject({ "lambda.crash.after": 2 });
    for (const message of [afterCharge, afterCall]) {
      expect(await readIdempotencyRecord(target, message.key!)).toMatchObject({ status: "COMPLETED" });
      expect(await readLedger(target, message.key!)).toMatchObject({ status: "COMPLETED", owner: message.messageId });
      expect(target.deliveries!.of(message.messageId).length).toBeGreaterThanOrEqual(2);
    }
  },
);

suite.scenario(
  { id: "s10", title: "10. an execution that times out mid-batch: the whole batch is retried, no double effect, no loss", needs: FAULTS, localTimeoutMs: 90_000 },
  async ({ target, payment, publish, settle }) => {
    // o2's Complete (ledger UpdateItem) is held 35 s, longer than the 34 s execution timeout.
    const sent = await publish([payment("o1"), payment("o2"), payment("o3")]);
    const settled = await settle(sent);

    expect(settled.fates).toEqual(Object.fromEntries(sent.map((m) => [m.messageId, "applied"])));
    for (const message of sent) {
      expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
      // Every record of the timed-out batch came back (SQS redelivery), then was deleted.
      const deliveries = target.deliveries!.of(message.messageId);
      expect(deliveries[0]).toMatchObject({ result: "retry", retryReason: "execution-timed-out" });
      expect(deliveries[deliveries.length - 1].result).toBe("acknowledged");
    }
    expect(target.faults!.injected()).toMatchObject({ "dynamodb.latency": 1 });
  },
);

suite.scenario(
  { id: "s13", title: "13. partial batch failure: only the failed record comes back, the rest are deleted", needs: FAULTS },
  async ({ target, payment, publish, settle }) => {
    const sent = await publish([payment("o1"), payment("o2"), payment("o3"), payment("o4")]);
    const settled = await settle(sent);

    expect(settled.fates).toEqual(Object.fromEntries(sent.map((m) => [m.messageId, "applied"])));
    for (const message of sent) {
      expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
      const results = target.deliveries!.of(message.messageId).map((d) => d.result);
      expect(results).toEqual(message.key!.endsWith(',"o3"]') ? ["retry", "acknowledged"] : ["acknowledged"]);
    }
    // The four shared one batch: the failure was partial.
    expect(target.deliveries!.of(sent[0].messageId)[0].batch).toHaveLength(4);
  },
);

suite.scenario(
  { id: "s14", title: "14. a poison message ends in the DLQ after maxReceiveCount (retries-exhausted) without blocking the others", needs: FAULTS },
  async ({ target, payment, publish, settle }) => {
    const [poison, ...first] = await publish([payment("poison"), payment("o1"), payment("o2")]);
    // Publish more once the poison has failed once: they must not wait behind it.
    await waitFor(() => target.deliveries!.of(poison.messageId)[0]?.result === "retry", { message: "the poison's first failure" });
    const later = await publish([payment("o3")]);
    const settled = await settle([poison, ...first, ...later]);

    expect(settled.fates).toEqual({
      [poison.messageId]: DlqReason.RetriesExhausted,
      ...Object.fromEntries([...first, ...later].map((m) => [m.messageId, "applied"])),
    });
    // Moved by the queue's redrive: same message id and body, no reason attribute.
    expect(settled.dlq).toEqual([expect.objectContaining({ messageId: poison.messageId, body: poison.body, reason: undefined })]);
    expect(settled.effects[poison.key!]).toEqual({ charges: 0, calls: 0, callOutcomes: {} });
    expect(await readLedger(target, poison.key!)).toBeUndefined();
    const poisonDeliveries = target.deliveries!.of(poison.messageId);
    // maxReceiveCount is 5: five deliveries, each failed, then the queue's redrive moved it.
    expect(poisonDeliveries.map((d) => d.result)).toEqual(Array(5).fill("retry"));
    for (const message of [...first, ...later]) expect(target.deliveries!.of(message.messageId).map((d) => d.result)).toEqual(["acknowledged"]);
    const [laterDelivery] = target.deliveries!.of(later[0].messageId);
    expect(laterDelivery.completedAt!).toBeLessThan(poisonDeliveries[poisonDeliveries.length - 1].receivedAt);
  },
);
