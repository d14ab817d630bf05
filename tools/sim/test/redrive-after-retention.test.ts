/**
 * The two ways the long search reached the redrive hole (.changeset/findings-of-the-searches.md), replayed through the whole simulated
 * pipeline and the real `ops dlq redrive` code: a producer's resend of a key charged on day 0, sent on day 8,
 * reaches the DLQ unrecognised; on day 16 the ledger has forgotten the key (day 14). The redrive must refuse it,
 * and the oracle must see one charge. Before the guard read the ledger, both scenarios charged the key twice.
 */
import { checkScenario } from "../src/fuzz/search";
import { Fate, FaultKind, type Scenario } from "../src/scenario/shape";
import { simSettings } from "../src/settings";

const EIGHT_DAYS = 8 * 86_400_000;
const body = (tenantId: string) => JSON.stringify({ tenantId, orderId: "o", amount: 10, currency: "EUR" });
const settings = simSettings();

describe("Simulation: a resend redriven after its key's memory ended", () => {
  it("its Inspect failed on every receive: refused on day 16, charged once", async () => {
    const scenario: Scenario = {
      seed: 0,
      pollers: 1,
      faults: [{ message: 1, kind: FaultKind.LedgerReadFail, receives: [1, 2, 3, 4, 5] }],
      ops: [{ op: "send", body: body("t") }, { op: "jump", ms: EIGHT_DAYS }, { op: "send", body: body("t") }, { op: "jump", ms: EIGHT_DAYS }, { op: "redrive" }, { op: "advance", ms: 1000 }],
    };
    const obs = await checkScenario(settings, scenario);
    expect(obs.charges).toHaveLength(1);
    expect(obs.messages.map((m) => m.fate)).toEqual([Fate.Acked, Fate.RetriesExhausted]);
    expect(obs.trace.some((line) => /redrive refused #1 retries-exhausted as unsafe/.test(line))).toBe(true);
  });

  it("a batch-mate hung every execution: the resend exhausted its receives; refused on day 16, charged once", async () => {
    const scenario: Scenario = {
      seed: 0,
      pollers: 1,
      faults: [{ message: 0, kind: FaultKind.FnHang, receives: [1, 2, 3, 4, 5] }],
      ops: [
        { op: "send", body: body("a") },
        { op: "send", body: body("#") },
        { op: "jump", ms: EIGHT_DAYS },
        { op: "redrive" },
        { op: "send", body: body("#") },
        { op: "jump", ms: EIGHT_DAYS },
        { op: "redrive" },
        { op: "send", body: body("a") },
      ],
    };
    const obs = await checkScenario(settings, scenario);
    expect(obs.trace.some((line) => /redrive refused #\d+ retries-exhausted as unsafe/.test(line))).toBe(true);
  });
});
