import { Allowance, ALLOWANCES, permanentFaultRule } from "../../src/oracle/allowances";
import { WIDE_ALLOWANCES } from "../../src/oracle/allowances-wide";
import { FAULT_CLASSES, FaultClass, PERMANENT_FAULTS, RUN_REPEATING_FAULTS } from "../../src/oracle/fault-classes";
import type { Delivery } from "../../src/facts/records";
import { violations, type OracleConfig } from "../../src/oracle/model";
import { Fate, FaultKind, type Observation, type Op, type Scenario } from "../../src/scenario/shape";

const DAY = 86_400_000;
const CONFIG: OracleConfig = { retentionMs: 14 * DAY, queueRetentionMs: 4 * DAY, leaseMs: 90_000, deadLetterRetentionMs: 14 * DAY };
const WIDE: OracleConfig = { ...CONFIG, allowances: WIDE_ALLOWANCES };
const pay = (amount: number, currency = "EUR", order = "o") => JSON.stringify({ tenantId: "t", orderId: order, amount, currency });
const KEY = '["t","o"]';

/** The sends, then a stall while nothing is in flight: the per-delivery protocol rules stand aside, the fates speak. */
function scenarioOf(bodies: string[], extra: Op[] = []): Scenario {
  return { seed: 1, pollers: 1, faults: [], ops: [...bodies.map((body) => ({ op: "send" as const, body })), ...extra] };
}
const stalled = (bodies: string[]) => scenarioOf(bodies, [{ op: "stall", ms: 1000 }]);

type Message = Observation["messages"][number];
const msg = (fate: Fate, faults: FaultKind[] = []): Message => ({ fate, sentAt: 0, faulted: faults.length > 0, faults });
function delivery(message: number, receive: number, over: Partial<Delivery> = {}): Delivery {
  const startedAt = 1000 * receive;
  return { message, copy: `m${message}`, receive, hardFault: false, holdsLedger: false, startedAt, at: startedAt + 9, retried: false, timedOut: false, batchFaulted: false, ...over };
}
function observed(messages: Message[], charges: Observation["charges"], deliveries: Delivery[], endedAt = 100_000): Observation {
  return { messages, charges, handlerRuns: [], deliveries, executions: [], ledger: [], invocations: [], stalls: [{ at: endedAt, ms: 1000 }], endedAt, trace: [], stats: { executions: 0, dynamoCalls: 0, invocations: 0, virtualMs: 0, timersFired: 0, transitions: [] } };
}
const charge = (message: number, at: number, amount = 10) => ({ message, at, amount, currency: "EUR" });
const exhausted = (message: number, over: Partial<Delivery> = {}) => [1, 2, 3, 4, 5].map((r) => delivery(message, r, { retried: true, ...over }));
const whats = (s: Scenario, o: Observation, c = CONFIG) => violations(s, o, c).map((v) => v.what);

describe("Model: the allowance rules", () => {
  it("every rule has a name, a fate and a one-line why; names are unique", () => {
    expect(new Set(ALLOWANCES.map((r) => r.name)).size).toBe(ALLOWANCES.length);
    for (const r of ALLOWANCES) expect(r.why).not.toMatch(/\n/);
  });

  it(`${Allowance.PayloadApplied}: acked once its own payload was charged; acked with only another payload charged is a violation`, () => {
    expect(whats(stalled([pay(10)]), observed([msg(Fate.Acked)], [charge(0, 5)], [delivery(0, 1)]))).toEqual([]);
    const found = whats(stalled([pay(10), pay(11)]), observed([msg(Fate.Acked), msg(Fate.Acked)], [charge(0, 5)], [delivery(0, 1), delivery(1, 2)]));
    expect(found).toEqual([expect.stringMatching(/^fate acked, expected quarantined:payload-mismatch; allowances considered for acked, none holds: payload-applied/)]);
  });

  it(`${Allowance.OtherPayloadApplied}: a conflict after another payload was charged; a false conflict (nothing else applied) is a violation whatever fault hit the key`, () => {
    const bodies = [pay(10), pay(11)];
    const deliveries = [delivery(0, 1), delivery(1, 2)];
    expect(whats(stalled(bodies), observed([msg(Fate.Acked), msg(Fate.Mismatch)], [charge(0, 5)], deliveries))).toEqual([]);
    // #0 applied nothing (its ledger reads failed), yet #1 is quarantined as a conflict.
    const falseConflict = observed([msg(Fate.RetriesExhausted, [FaultKind.LedgerReadFail]), msg(Fate.Mismatch)], [], [...exhausted(0, { hardFault: true }), delivery(1, 6)]);
    expect(whats(stalled(bodies), falseConflict)).toEqual([expect.stringContaining(`allowances considered for quarantined:payload-mismatch, none holds: ${Allowance.OtherPayloadApplied}`)]);
    expect(whats(stalled(bodies), falseConflict, WIDE)).toEqual([]);
    // The other payload charged only after the conflict was decided: no record of it existed then.
    const late = observed([msg(Fate.Acked), msg(Fate.Mismatch, [FaultKind.FnCrashBefore])], [charge(0, 50_000)], [delivery(0, 49), delivery(1, 2)]);
    expect(whats(stalled(bodies), late)).toEqual([expect.stringContaining(Allowance.OtherPayloadApplied)]);
  });

  it(`${Allowance.DownstreamRefuses}: rejected when the downstream refuses the payload; a payload it accepts rejected after a timeout is a violation`, () => {
    expect(whats(stalled([pay(10, "XXX")]), observed([msg(Fate.Rejected)], [], [delivery(0, 1)]))).toEqual([]);
    const timedOut = observed([msg(Fate.Rejected, [FaultKind.FnHang])], [], [delivery(0, 1, { hardFault: true })]);
    expect(whats(stalled([pay(10)]), timedOut)).toEqual([expect.stringMatching(/allowances considered for quarantined:rejected, none holds: downstream-refuses .*; permanent-fault /)]);
    expect(whats(stalled([pay(10)]), timedOut, WIDE)).toEqual([]);
  });

  it(`${Allowance.PermanentFault}: rejected after a fault the pipeline classifies permanent; none of the simulated faults is one`, () => {
    expect(PERMANENT_FAULTS).toEqual([]);
    expect([...FAULT_CLASSES.keys()].sort()).toEqual(Object.values(FaultKind).sort());
    const hang = observed([msg(Fate.Rejected, [FaultKind.FnHang])], [], [delivery(0, 1, { hardFault: true })]);
    const rules = [...ALLOWANCES.filter((r) => r.name !== Allowance.PermanentFault), permanentFaultRule([FaultKind.FnHang])];
    expect(whats(stalled([pay(10)]), hang, { ...CONFIG, allowances: rules })).toEqual([]);
    for (const kind of [...FAULT_CLASSES].filter(([, c]) => c.class !== FaultClass.Permanent).map(([k]) => k)) {
      const obs = observed([msg(Fate.Rejected, [kind])], [], [delivery(0, 1, { hardFault: true })]);
      expect(whats(stalled([pay(10)]), obs)).toEqual([expect.stringContaining(Allowance.PermanentFault)]);
    }
  });

  it(`${Allowance.ReceivesLost}: receives may run out when each receive of the last copy was lost; a fault elsewhere on the key does not excuse clean receives`, () => {
    expect(whats(stalled([pay(10)]), observed([msg(Fate.RetriesExhausted, [FaultKind.LedgerFail])], [], exhausted(0, { hardFault: true })))).toEqual([]);
    // #0 crashed once (then applied); #1, same key and payload, sent after #0's lease, handed back five times with nothing in its way.
    const bodies = [pay(10), pay(10)];
    const obs = observed([msg(Fate.Acked, [FaultKind.FnCrashBefore]), msg(Fate.RetriesExhausted)], [charge(0, 2005)], [delivery(0, 1, { retried: true, hardFault: true }), delivery(0, 2), ...exhausted(1).map((d) => ({ ...d, startedAt: d.startedAt + 200_000, at: d.at + 200_000 }))], 1_000_000);
    expect(whats(stalled(bodies), obs)).toEqual([expect.stringContaining(`allowances considered for retries-exhausted, none holds: ${Allowance.ReceivesLost}`)]);
    expect(whats(stalled(bodies), obs, WIDE)).toEqual([]);
  });

  it(`${Allowance.ReceivesLost}: a DLQ that refuses every quarantine of a body excuses its receives; one refusal on one receive does not`, () => {
    const invalid = '{"note":1}';
    const everyReceive = observed([msg(Fate.RetriesExhausted, [FaultKind.QuarantineFail])], [], exhausted(0, { hardFault: true }));
    expect(whats(stalled([invalid]), everyReceive)).toEqual([]);
    const firstOnly = observed([msg(Fate.RetriesExhausted, [FaultKind.QuarantineFail])], [], exhausted(0).map((d) => (d.receive === 1 ? { ...d, hardFault: true } : d)));
    expect(whats(stalled([invalid]), firstOnly)).toEqual([expect.stringContaining(`none holds: ${Allowance.ReceivesLost}`)]);
    expect(whats(stalled([invalid]), firstOnly, WIDE)).toEqual([]);
  });

  it(`${Allowance.DlqRetention}: a message older than the DLQ's retention may have aged out; a younger one may not`, () => {
    expect(whats(stalled(['{"note":1}']), observed([msg(Fate.Expired)], [], [delivery(0, 1)], 15 * DAY))).toEqual([]);
    expect(whats(stalled(['{"note":1}']), observed([msg(Fate.Expired)], [], [delivery(0, 1)], 13 * DAY))).toEqual([expect.stringContaining(`none holds: ${Allowance.DlqRetention}`)]);
  });

  it("a fate no rule speaks of says so", () => {
    expect(whats(stalled([pay(10)]), observed([msg(Fate.Pending)], [charge(0, 5)], [delivery(0, 1)]))).toEqual([expect.stringContaining("no allowance speaks of pending")]);
    expect(KEY).toBe(JSON.stringify(["t", "o"]));
  });
});

describe("Model: the first layer's count stands aside only for a fault that repeats a run", () => {
  const noStall = (bodies: string[]) => scenarioOf(bodies);
  const twice = (faults: FaultKind[]): Observation => ({
    ...observed([msg(Fate.Acked, faults)], [charge(0, 1005)], [delivery(0, 1, { retried: true, hardFault: true }), delivery(0, 2)]),
    stalls: [],
    handlerRuns: [{ message: 0, at: 1003 }, { message: 0, at: 2003 }],
  });

  it("a crash after the side effect or a claim left IN_PROGRESS: the handler may run again, Powertools answers it", () => {
    for (const kind of RUN_REPEATING_FAULTS) expect(whats(noStall([pay(10)]), twice([kind]))).toEqual([]);
  });

  it("a crash before the handler, a throttle or a failed claim runs it no second time: two runs are a violation", () => {
    for (const kind of [FaultKind.FnCrashBefore, FaultKind.FnThrottle, FaultKind.LedgerFail, FaultKind.FnTimeout, FaultKind.VisibilityExpiry, FaultKind.QuarantineFail]) {
      expect(whats(noStall([pay(10)]), twice([kind]))).toEqual([expect.stringContaining("the function ran 2 times")]);
    }
  });
});
