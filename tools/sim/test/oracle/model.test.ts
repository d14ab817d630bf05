import { judge, violations, type OracleConfig } from "../../src/oracle/model";
import { Fate, type Observation, type Scenario } from "../../src/scenario/shape";

const body = (fields: Record<string, string>): string => `{${Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`;
const pay = (tenant: string, order: string, amount = "10", currency = '"EUR"') => body({ tenantId: JSON.stringify(tenant), orderId: JSON.stringify(order), amount, currency });
const DAY = 86_400_000;
const CONFIG: OracleConfig = { retentionMs: 7 * DAY, queueRetentionMs: 4 * DAY };

function scenarioOf(...bodies: string[]): Scenario {
  return { seed: 1, pollers: 1, faults: [], ops: bodies.map((b) => ({ op: "send" as const, body: b })) };
}
function observed(messages: [Fate, number][], charges: Observation["charges"]): Observation {
  return { messages: messages.map(([fate, sentAt]) => ({ fate, sentAt, faulted: false })), charges, handlerRuns: charges.map((c) => ({ message: c.message, at: c.at })), deliveries: [], executions: [], ledger: [], invocations: [], endedAt: 0, trace: [], stats: { executions: 0, dynamoCalls: 0, invocations: 0, virtualMs: 0, timersFired: 0, transitions: [] } };
}

describe("Function: judge (the intended semantics of issue 11)", () => {
  it("keys are the JSON array of the parts: separators inside parts never merge two tuples", () => {
    const a = judge(pay("a#b", "c"));
    const b = judge(pay("a", "b#c"));
    expect(a).toMatchObject({ kind: "valid", key: '["a#b","c"]' });
    expect(b).toMatchObject({ kind: "valid", key: '["a","b#c"]' });
  });

  it("10, 10.0 and 1e1 are one payload; 1000000000000001 and 1000000000000002 are two", () => {
    const payloads = ["10", "10.0", "1e1"].map((n) => (judge(pay("t", "o", n)) as { payload: string }).payload);
    expect(new Set(payloads).size).toBe(1);
    expect(judge(pay("t", "o", "1000000000000001"))).not.toEqual(judge(pay("t", "o", "1000000000000002")));
  });

  it("refuses what cannot be carried exactly or breaks a field rule, naming the field", () => {
    expect(judge(pay("t", "o", "9007199254740993"))).toMatchObject({ kind: "invalid", why: expect.stringContaining("amount") });
    expect(judge(pay("t", "o", "1e400"))).toMatchObject({ kind: "invalid" });
    expect(judge(pay("t", "o", '"10"'))).toMatchObject({ kind: "invalid", why: expect.stringContaining("amount") });
    expect(judge(body({ tenantId: "4242", orderId: '"o"', amount: "10", currency: '"EUR"' }))).toMatchObject({ kind: "invalid", why: expect.stringContaining("tenantId") });
    expect(judge(pay("t", "o", "10", '"eur"'))).toMatchObject({ kind: "invalid", why: expect.stringContaining("currency") });
    expect(judge(pay("x".repeat(1030), "o"))).toMatchObject({ kind: "invalid", why: expect.stringContaining("1,024") });
    expect(judge(`{"deep":${"[".repeat(20_000)}${"]".repeat(20_000)}}`)).toMatchObject({ kind: "invalid", why: "nested too deep" });
  });

  it("NFC and NFD are two keys; a lone surrogate is kept, escaped", () => {
    expect(judge(pay("caf\u00e9", "o"))).not.toMatchObject({ key: (judge(pay("cafe\u0301", "o")) as { key: string }).key });
    expect(judge(pay("\ud800", "o"))).toMatchObject({ kind: "valid", key: '["\\ud800","o"]' });
  });

  it("SQS refuses bodies over 262,144 bytes and characters outside its set", () => {
    expect(judge(`{"pad":"${"p".repeat(262_144)}"}`)).toMatchObject({ kind: "refused" });
    expect(judge(`{"tenantId":"\u0001"}`)).toMatchObject({ kind: "refused" });
  });
});

describe("Function: violations", () => {
  it("accepts one charge and a duplicate acknowledged", () => {
    const s = scenarioOf(pay("t", "o"), pay("t", "o", "1e1"));
    const obs = observed([[Fate.Acked, 0], [Fate.Acked, 1]], [{ message: 0, at: 5, amount: 10, currency: "EUR" }]);
    expect(violations(s, obs, CONFIG)).toEqual([]);
  });

  it("flags a duplicate that reached the function although the first layer should have answered it", () => {
    const s = scenarioOf(pay("t", "o"), pay("t", "o"));
    const obs = { ...observed([[Fate.Acked, 0], [Fate.Acked, 1]], [{ message: 0, at: 5, amount: 10, currency: "EUR" }]), handlerRuns: [{ message: 0, at: 5 }, { message: 1, at: 9 }] };
    expect(violations(s, obs, CONFIG)).toEqual([expect.objectContaining({ what: expect.stringContaining("the function ran 2 times") })]);
  });

  it("flags a second charge of a key by a message sent within what the pipeline must remember", () => {
    const s = scenarioOf(pay("t", "o"));
    const obs = observed([[Fate.Acked, 0]], [
      { message: 0, at: 0, amount: 10, currency: "EUR" },
      { message: 0, at: 10 * DAY, amount: 10, currency: "EUR" },
    ]);
    expect(violations(s, obs, CONFIG)).toEqual([expect.objectContaining({ message: 0, what: expect.stringContaining("charged again") })]);
  });

  it("allows a new charge for a message first sent after the memory may have ended", () => {
    const s = scenarioOf(pay("t", "o"), pay("t", "o"));
    const obs = observed([[Fate.Acked, 0], [Fate.Acked, 5 * DAY]], [
      { message: 0, at: 0, amount: 10, currency: "EUR" },
      { message: 1, at: 5 * DAY, amount: 10, currency: "EUR" },
    ]);
    expect(violations(s, obs, CONFIG)).toEqual([]);
  });

  it("flags a conflict acknowledged as a duplicate, and a distinct key acknowledged without a charge", () => {
    const s = scenarioOf(pay("t", "o", "1000000000000001"), pay("t", "o", "1000000000000002"), pay("a#b", "c"), pay("a", "b#c"));
    const obs = observed([[Fate.Acked, 0], [Fate.Acked, 0], [Fate.Acked, 0], [Fate.Acked, 0]], [
      { message: 0, at: 1, amount: 1000000000000001, currency: "EUR" },
      { message: 2, at: 1, amount: 10, currency: "EUR" },
    ]);
    expect(violations(s, obs, CONFIG).map((v) => v.message)).toEqual([1, 3]);
  });

  it("flags an invalid message that was retried to exhaustion instead of quarantined, and a charge of an invalid one", () => {
    const s = scenarioOf(body({ tenantId: "4242", orderId: '"o"', amount: "10", currency: '"EUR"' }));
    const obs = observed([[Fate.RetriesExhausted, 0]], [{ message: 0, at: 1, amount: 10, currency: "EUR" }]);
    expect(violations(s, obs, CONFIG).map((v) => v.what)).toEqual([expect.stringContaining("charged although"), expect.stringContaining("expected quarantined:invalid-message")]);
  });
});
