import { judgeSend, violations, type OracleConfig } from "../../src/oracle/model";
import { RedriveRule } from "../../src/oracle/redrive";
import type { RedriveFact } from "../../src/facts/records";
import { Fate, type Observation, type Scenario } from "../../src/scenario/shape";

const DAY = 86_400_000;
const CONFIG: OracleConfig = { retentionMs: 14 * DAY, queueRetentionMs: 4 * DAY, leaseMs: 90_000 };
const pay = JSON.stringify({ tenantId: "t", orderId: "o", amount: 10, currency: "EUR" });
const KEY = '["t","o"]';
const SENT_AT = 1_000;
/** Message #0 quarantined as invalid, then moved by a redrive on day 1 with the tool's facts equal to the pipeline's. */
const HONEST: RedriveFact = { at: DAY, message: 0, givenReason: "invalid-message", reason: "invalid-message", firstSentAt: SENT_AT, named: 0 };

function scenarioOf(body: string): Scenario {
  return { seed: 1, pollers: 1, faults: [], ops: [{ op: "send", body }, { op: "redrive" }] };
}

function observed(fate: Fate, redrive: RedriveFact): Observation {
  return {
    messages: [{ fate, sentAt: SENT_AT, faulted: true }],
    charges: [],
    handlerRuns: [],
    // Queue-moved: every receive of its copy met a hard fault (the allowance receives-lost).
    deliveries: fate === Fate.RetriesExhausted ? [1, 2, 3, 4, 5].map((receive) => ({ message: 0, copy: "m1", receive, hardFault: true, holdsLedger: false, startedAt: receive * 100, at: receive * 100 + 9, retried: true, timedOut: false, batchFaulted: true })) : [],
    executions: [],
    ledger: [],
    invocations: [],
    redrives: [redrive],
    endedAt: 2 * DAY,
    trace: [],
    stats: { executions: 0, dynamoCalls: 0, invocations: 0, virtualMs: 0, timersFired: 0, transitions: [] },
  };
}

const check = (body: string, fate: Fate, fact: Partial<RedriveFact>) => violations(scenarioOf(body), observed(fate, { ...HONEST, ...fact }), CONFIG);

describe("Model: the redrive acts on the pipeline's facts, never a producer's", () => {
  it("accepts a redrive whose facts are the pipeline's", () => {
    expect(check("{}", Fate.Invalid, {})).toEqual([]);
  });

  it(`${RedriveRule.Age}: flags a message that looked younger to the redrive than it is (a forged firstSentTimestamp)`, () => {
    expect(check("{}", Fate.Invalid, { firstSentAt: 9_999_999_999_999 })).toEqual([expect.objectContaining({ message: 0, what: expect.stringMatching(/^redrive-true-age: .*2286/) })]);
    // Older than it is only makes the redrive refuse more: safe.
    expect(check("{}", Fate.Invalid, { firstSentAt: 1 })).toEqual([]);
  });

  it(`${RedriveRule.Reason}: flags a queue-moved message the redrive took for rejected (a forged reason)`, () => {
    const found = check(pay, Fate.RetriesExhausted, { givenReason: "retries-exhausted", reason: "rejected", businessKey: KEY });
    expect(found).toEqual([expect.objectContaining({ message: 0, key: KEY, what: "redrive-true-reason: the redrive moved it as rejected, but the pipeline gave it retries-exhausted" })]);
  });

  it(`${RedriveRule.Key}: flags a redrive that asked the ledger about a key the body does not name (a forged businessKey)`, () => {
    expect(check(pay, Fate.RetriesExhausted, { givenReason: "retries-exhausted", reason: "retries-exhausted", businessKey: '["a","a"]' })).toEqual([
      expect.objectContaining({ what: expect.stringMatching(/^redrive-true-key: /) }),
    ]);
    expect(check(pay, Fate.RetriesExhausted, { givenReason: "retries-exhausted", reason: "retries-exhausted", businessKey: KEY })).toEqual([]);
    // An invalid body names no key the pipeline would charge: whatever the tool asked about, nothing can apply twice.
    expect(check("{}", Fate.Invalid, { businessKey: '["a","a"]' })).toEqual([]);
  });

  it(`${RedriveRule.Origin}: flags a redrive that named another message, or one the pipeline never saw (a forged originalMessageId)`, () => {
    expect(check("{}", Fate.Invalid, { named: 3 })).toEqual([expect.objectContaining({ what: "redrive-true-origin: the redrive reported it as message #3" })]);
    expect(check("{}", Fate.Invalid, { named: undefined })).toEqual([expect.objectContaining({ what: expect.stringContaining("a message the pipeline never saw") })]);
  });
});

describe("Function: judgeSend", () => {
  const attribute = (name: string, value: string, dataType = "String") => ({ name, dataType, value });

  it("a body that is no JSON object, or JSON without its key fields, is invalid-message, whatever its text", () => {
    for (const body of ["__proto__", "hasOwnProperty", "constructor", "null", "1E2", '"__proto__"', "{}", '{"__proto__":{"tenantId":"t","orderId":"o","amount":10,"currency":"EUR"}}']) {
      expect(judgeSend(body, undefined)).toMatchObject({ kind: "invalid" });
    }
    expect(judgeSend('{"tenantId":"__proto__","orderId":"constructor","amount":10,"currency":"EUR"}', undefined)).toMatchObject({ kind: "valid", key: '["__proto__","constructor"]' });
  });

  it("attributes the producer may set do not change the verdict; attributes SQS refuses make the send refused", () => {
    expect(judgeSend(pay, [attribute("firstSentTimestamp", "9999999999999", "Number"), attribute("__proto__", "x")])).toMatchObject({ kind: "valid", key: KEY });
    for (const bad of [[attribute("AWS.Trace", "x")], [attribute("a..b", "x")], [attribute("reason", "")], [attribute("n", "soon", "Number")], [attribute("r", "x", "Text")], [attribute("c", "\u0001")]]) {
      expect(judgeSend(pay, bad)).toMatchObject({ kind: "refused", why: expect.stringContaining("attributes SQS refuses") });
    }
    expect(judgeSend(pay, Array.from({ length: 11 }, (_, i) => attribute(`a${i}`, "x")))).toMatchObject({ kind: "refused" });
  });

  it("counts attribute names, types and values in SQS's size limit", () => {
    const body = `{"pad":"${"p".repeat(262_100)}"}`;
    expect(judgeSend(body, undefined)).toMatchObject({ kind: "invalid" });
    expect(judgeSend(body, [attribute("detail", "d".repeat(100))])).toMatchObject({ kind: "refused", why: expect.stringContaining("body and attributes") });
  });
});
