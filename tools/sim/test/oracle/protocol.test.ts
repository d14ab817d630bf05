import { violations, type OracleConfig } from "../../src/oracle/model";
import { Fate, type Observation, type Scenario } from "../../src/scenario/shape";

const pay = (order: string, currency = "EUR") => JSON.stringify({ tenantId: "t", orderId: order, amount: 10, currency });
const CONFIG: OracleConfig = { retentionMs: 14 * 86_400_000, queueRetentionMs: 4 * 86_400_000, leaseMs: 90_000 };
const KEY = '["t","o"]';

function scenarioOf(...bodies: string[]): Scenario {
  return { seed: 1, pollers: 1, faults: [], ops: bodies.map((b) => ({ op: "send" as const, body: b })) };
}

/** One message applied on its first delivery, with the ledger history of a well-behaved worker. */
function applied(overrides: Partial<Observation> = {}): Observation {
  return {
    messages: [{ fate: Fate.Acked, sentAt: 0, faulted: false }],
    charges: [{ message: 0, at: 5, amount: 10, currency: "EUR" }],
    handlerRuns: [{ message: 0, at: 5 }],
    deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: false, timedOut: false, batchFaulted: false }],
    executions: [{ status: "SUCCEEDED", at: 9, faulted: false, answered: true }],
    ledger: [
      { kind: "claim", key: KEY, claimId: "c1", at: 2 },
      { kind: "complete", key: KEY, claimId: "c1", at: 8 },
    ],
    invocations: [{ key: KEY, startedAt: 3, endedAt: 7, ok: true }],
    endedAt: 10,
    trace: [],
    stats: { executions: 1, dynamoCalls: 3, invocations: 1, virtualMs: 10, timersFired: 0, transitions: [] },
    ...overrides,
  };
}

describe("Model: transient errors cost no receive", () => {
  it("accepts a message settled by its first execution", () => {
    expect(violations(scenarioOf(pay("o")), applied(), CONFIG)).toEqual([]);
  });

  it("flags a message with nothing in flight on its key that its first execution handed back", () => {
    const obs = applied({ deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: true, timedOut: false, batchFaulted: false }, { message: 0, copy: "m1", receive: 2, hardFault: false, holdsLedger: false, startedAt: 600, at: 601, retried: false, timedOut: false, batchFaulted: false }] });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual([expect.objectContaining({ message: 0, what: expect.stringContaining("handed back for a retry on receive 1") })]);
  });

  it("excuses a hard fault, an execution that timed out, and a key another message holds", () => {
    const retried = { message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: true, timedOut: false, batchFaulted: false };
    const hard = applied({ messages: [{ fate: Fate.Acked, sentAt: 0, faulted: true }], deliveries: [{ ...retried, hardFault: true }] });
    const timedOut = applied({ deliveries: [{ ...retried, timedOut: true, batchFaulted: true }] });
    expect(violations(scenarioOf(pay("o")), hard, CONFIG)).toEqual([]);
    expect(violations(scenarioOf(pay("o")), timedOut, CONFIG)).toEqual([]);
    // A copy of the same key in the same execution: the second one meets the first one's claim in flight.
    const both = applied({
      messages: [{ fate: Fate.Acked, sentAt: 0, faulted: false }, { fate: Fate.Acked, sentAt: 0, faulted: false }],
      deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: false, timedOut: false, batchFaulted: false }, { message: 1, copy: "m2", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: true, timedOut: false, batchFaulted: false }],
    });
    expect(violations(scenarioOf(pay("o"), pay("o")), both, CONFIG)).toEqual([]);
  });
});

describe("Model: the pipe always gets the batch's answer", () => {
  it("flags an execution that failed, or ran out of time with no fault holding it up", () => {
    const failed = applied({ executions: [{ status: "FAILED", at: 9, faulted: false, answered: false }] });
    const slow = applied({ executions: [{ status: "TIMED_OUT", at: 9, faulted: false, answered: false }] });
    const held = applied({ executions: [{ status: "TIMED_OUT", at: 9, faulted: true, answered: false }] });
    expect(violations(scenarioOf(pay("o")), failed, CONFIG)).toEqual([expect.objectContaining({ what: expect.stringContaining("an execution ended FAILED") })]);
    expect(violations(scenarioOf(pay("o")), slow, CONFIG)).toEqual([expect.objectContaining({ what: expect.stringContaining("an execution ended TIMED_OUT") })]);
    expect(violations(scenarioOf(pay("o")), held, CONFIG)).toEqual([]);
  });

  it("does not ask it when the operator released the key, even naming it by an invalid message's body (found by the search)", () => {
    // #0 is invalid (amount 0) but carries the key's parts; the operator's release of #0 deletes #1's live claim.
    const invalid = JSON.stringify({ tenantId: "t", orderId: "o", amount: 0, currency: "EUR" });
    const scenario: Scenario = { seed: 1, pollers: 1, faults: [], ops: [{ op: "send", body: invalid }, { op: "send", body: pay("o") }, { op: "release", message: 0 }] };
    const obs = applied({
      messages: [{ fate: Fate.Invalid, sentAt: 0, faulted: false }, { fate: Fate.Acked, sentAt: 0, faulted: false }],
      charges: [{ message: 1, at: 5, amount: 10, currency: "EUR" }],
      handlerRuns: [{ message: 1, at: 5 }],
      deliveries: [{ message: 1, copy: "m2", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 9, retried: false, timedOut: false, batchFaulted: false }],
      ledger: [{ kind: "claim", key: KEY, claimId: "c1", at: 2 }],
    });
    expect(violations(scenario, obs, CONFIG).filter((v) => v.what.includes("was not completed"))).toEqual([]);
    const unreleased: Scenario = { ...scenario, ops: scenario.ops.slice(0, 2) };
    expect(violations(unreleased, obs, CONFIG)).toEqual(expect.arrayContaining([expect.objectContaining({ what: expect.stringContaining("returned but claim c1 was not completed") })]));
  });
});

describe("Model: a lease that ran out frees the key", () => {
  const faulted = { message: 0, copy: "m1", receive: 1, hardFault: true, holdsLedger: false, startedAt: 1, at: 9, retried: true, timedOut: false, batchFaulted: false };
  const next = (startedAt: number) => ({ message: 0, copy: "m1", receive: 2, hardFault: false, holdsLedger: false, startedAt, at: startedAt + 5, retried: true, timedOut: false, batchFaulted: false });

  it("flags a delivery handed back once the lease of a faulted one ran out", () => {
    const obs = applied({ messages: [{ fate: Fate.Acked, sentAt: 0, faulted: true }], deliveries: [faulted, next(9 + 90_000)] });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual([expect.objectContaining({ what: expect.stringContaining("on receive 2") })]);
  });

  it("excuses one within the lease, when a claim the faulted one left may still hold the key", () => {
    const obs = applied({ messages: [{ fate: Fate.Acked, sentAt: 0, faulted: true }], deliveries: [faulted, next(9 + 89_999)] });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual([]);
  });
});

describe("Model: a late worker never touches someone else's claim", () => {
  it("flags a completion of a claim no invocation under it returned for", () => {
    // Claim c2 taken over at 20; the completion at 30 follows only the invocation that started under c1.
    const obs = applied({
      ledger: [
        { kind: "claim", key: KEY, claimId: "c1", at: 2 },
        { kind: "claim", key: KEY, claimId: "c2", at: 20 },
        { kind: "complete", key: KEY, claimId: "c2", at: 30 },
      ],
      invocations: [{ key: KEY, startedAt: 3, endedAt: 25, ok: true }],
    });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual([expect.objectContaining({ key: KEY, what: expect.stringContaining("the ledger completed claim c2") })]);
  });

  it("accepts a release after an invocation under the claim failed, or after its Task stopped waiting", () => {
    const release = (invocation: Observation["invocations"][number]) =>
      applied({
        deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 45, retried: false, timedOut: false, batchFaulted: false }],
        ledger: [{ kind: "claim", key: KEY, claimId: "c1", at: 2 }, { kind: "release", key: KEY, claimId: "c1", at: 30 }],
        invocations: [invocation],
      });
    expect(violations(scenarioOf(pay("o")), release({ key: KEY, startedAt: 3, endedAt: 7, ok: false }), CONFIG)).toEqual([]);
    expect(violations(scenarioOf(pay("o")), release({ key: KEY, startedAt: 3, endedAt: 40, ok: true, abandonedAt: 18 }), CONFIG)).toEqual([]);
    expect(violations(scenarioOf(pay("o")), release({ key: KEY, startedAt: 3, endedAt: 7, ok: true }), CONFIG)).toEqual(
      expect.arrayContaining([expect.objectContaining({ what: expect.stringContaining("the ledger released claim c1") })]),
    );
  });
});

describe("Model: a stalled host costs the deliveries in flight", () => {
  it("lets receives run out when the first was in flight during a stall and the rest timed out behind a faulted batch-mate (found by the search)", () => {
    const scenario: Scenario = { seed: 1, pollers: 1, faults: [], ops: [{ op: "send", body: pay("o") }, { op: "stall", ms: 3_600_000 }] };
    const late = (receive: number) => ({ message: 0, copy: "m1", receive, hardFault: false, holdsLedger: false, startedAt: receive * 4_000_000, at: receive * 4_000_000 + 90_000, retried: true, timedOut: true, batchFaulted: true });
    const obs = applied({
      messages: [{ fate: Fate.RetriesExhausted, sentAt: 0, faulted: false }],
      charges: [],
      handlerRuns: [],
      // Receive 1 answered "all succeeded", but after the pipe gave up on it: the message came back.
      deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: false, holdsLedger: false, startedAt: 1, at: 3_600_200, retried: false, timedOut: false, batchFaulted: false }, late(2), late(3), late(4), late(5)],
      ledger: [],
      invocations: [],
      stalls: [{ at: 100, ms: 3_600_000 }],
    });
    const fateViolations = (o: Observation) => violations(scenario, o, CONFIG).filter((v) => v.what.startsWith("fate"));
    expect(fateViolations(obs)).toEqual([]);
    expect(fateViolations({ ...obs, stalls: [] })).toEqual([expect.objectContaining({ what: expect.stringContaining("fate retries-exhausted") })]);
  });
});

describe("Model: a worker finishes its claim", () => {
  it("flags a delivery whose invocation returned and whose claim was never completed", () => {
    const obs = applied({ ledger: [{ kind: "claim", key: KEY, claimId: "c1", at: 2 }] });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual([expect.objectContaining({ what: expect.stringContaining("returned but claim c1 was not completed") })]);
  });

  it("flags a delivery whose last invocation failed and whose claim stayed", () => {
    const obs = applied({ ledger: [{ kind: "claim", key: KEY, claimId: "c1", at: 2 }], invocations: [{ key: KEY, startedAt: 3, endedAt: 7, ok: false }] });
    expect(violations(scenarioOf(pay("o")), obs, CONFIG)).toEqual(expect.arrayContaining([expect.objectContaining({ what: expect.stringContaining("claim c1 was not released") })]));
  });

  it("does not ask it of an attempt a retry followed, or of a worker a fault kept from the ledger", () => {
    const retried = applied({ invocations: [{ key: KEY, startedAt: 3, endedAt: 4, ok: false }, { key: KEY, startedAt: 5, endedAt: 7, ok: true }] });
    expect(violations(scenarioOf(pay("o")), retried, CONFIG)).toEqual([]);
    const held = applied({
      messages: [{ fate: Fate.Acked, sentAt: 0, faulted: true }],
      deliveries: [{ message: 0, copy: "m1", receive: 1, hardFault: true, holdsLedger: true, startedAt: 1, at: 9, retried: true, timedOut: false, batchFaulted: true }],
      ledger: [{ kind: "claim", key: KEY, claimId: "c1", at: 2 }],
      invocations: [{ key: KEY, startedAt: 3, endedAt: 7, ok: false }],
    });
    expect(violations(scenarioOf(pay("o")), held, CONFIG)).toEqual([]);
  });
});

describe("Model: the downstream's refused currency", () => {
  it("expects a refused payload rejected and never charged", () => {
    const rejected = applied({ messages: [{ fate: Fate.Rejected, sentAt: 0, faulted: false }], charges: [], handlerRuns: [{ message: 0, at: 5 }], ledger: [], invocations: [] });
    expect(violations(scenarioOf(pay("o", "XXX")), rejected, CONFIG)).toEqual([]);
    const charged = applied({ charges: [{ message: 0, at: 5, amount: 10, currency: "XXX" }] });
    expect(violations(scenarioOf(pay("o", "XXX")), charged, CONFIG)).toEqual(expect.arrayContaining([expect.objectContaining({ what: expect.stringContaining("charged although the downstream refuses") })]));
  });
});
