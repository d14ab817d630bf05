/**
 * Two breaks a search found (.changeset/findings-of-the-searches.md), through the whole simulated pipeline: a key the ledger lost early
 * (its Complete failed after the invocation) whose resend is redriven during a pipe outage, and side effects whose
 * results are over Step Functions' 256 KiB and over DynamoDB's 400 KB item. On the code before the fixes the first
 * charged the key twice and the others ended retries-exhausted although applied; now each is applied once.
 */
import { checkScenario } from "../src/fuzz/search";
import { Fate, FaultKind, type Scenario } from "../src/scenario/shape";
import { simSettings } from "../src/settings";

const DAY = 86_400_000;
const body = JSON.stringify({ tenantId: "t", orderId: "o", amount: 10, currency: "EUR" });
const settings = simSettings();

describe("Simulation: ledger-losing paths and oversize results", () => {
  it("Complete failed on day 0; a resend of day 9.5 exhausted its receives; redriven on day 13 during a 3-day outage: refused, charged once", async () => {
    const scenario: Scenario = {
      seed: 0,
      pollers: 1,
      faults: [
        { message: 0, kind: FaultKind.CompleteFail, receives: [1] },
        { message: 1, kind: FaultKind.FnCrashAfter, receives: [1, 2, 3, 4, 5] },
      ],
      ops: [
        { op: "send", body },
        { op: "jump", ms: 8 * DAY },
        { op: "jump", ms: DAY },
        { op: "outage", ms: DAY / 2 },
        { op: "jump", ms: DAY / 24 },
        { op: "send", body },
        { op: "outage", ms: DAY / 2 },
        { op: "jump", ms: 3 * DAY },
        { op: "outage", ms: 3 * DAY },
        { op: "redrive" },
      ],
    };
    const obs = await checkScenario(settings, scenario);
    expect(obs.charges).toHaveLength(1);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.RetriesExhausted]);
    expect(obs.trace.some((line) => /redrive refused #1 retries-exhausted as unsafe/.test(line))).toBe(true);
  });

  it.each([
    [FaultKind.ResultOverPayload, [1]],
    [FaultKind.ResultOverItem, [1, 2, 3, 4, 5]],
  ])("a side effect returning %s (receives %j): acknowledged, applied and run once", async (kind, receives) => {
    const scenario: Scenario = { seed: 0, pollers: 1, faults: [{ message: 0, kind, receives }], ops: [{ op: "send", body }, { op: "send", body }] };
    const obs = await checkScenario(settings, scenario);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.Acked]);
    expect(obs.charges).toHaveLength(1);
    expect(obs.handlerRuns).toHaveLength(1);
    expect(obs.trace.some((line) => line.includes(`fault ${kind} message #0 receive 1`))).toBe(true);
  });

  it("a message sent during an outage waits for its end", async () => {
    const scenario: Scenario = { seed: 0, pollers: 2, faults: [], ops: [{ op: "outage", ms: DAY }, { op: "send", body }] };
    const obs = await checkScenario(settings, scenario);
    expect(obs.messages[0].fate).toBe(Fate.Acked);
    expect(obs.charges[0].at - obs.messages[0].sentAt).toBeGreaterThanOrEqual(DAY);
  });
});
