import { DLQ_KEEPS_MS, expiryVerdict } from "../../src/oracle/retention";
import type { ExpiryFact } from "../../src/facts/records";
import { Fate, type Observation } from "../../src/scenario/shape";

const H = 3_600_000;
const config = { deadLetterRetentionMs: 14 * 24 * H, ageAlarmMs: 600_000 };
const obs = (fact: ExpiryFact | undefined, endedAt = 2 * H): Observation =>
  ({ messages: [{ fate: Fate.Expired, sentAt: 0, faulted: false }], expiries: fact ? [fact] : [], endedAt }) as unknown as Observation;

describe("Function: expiryVerdict", () => {
  it("refuses a message that aged out of the source queue while its receives went on", () => {
    const verdict = expiryVerdict(obs({ message: 0, queue: "source", moved: false, at: 60_000, waitedMs: 0 }), 0, config);
    expect(verdict.allowed).toBe(false);
    expect(verdict.why).toMatch(/aged out of the source queue .* never reached the DLQ/);
  });

  it("allows it once it waited unreceived longer than the age alarm budgets (outside the model: the alarm fired)", () => {
    expect(expiryVerdict(obs({ message: 0, queue: "source", moved: false, at: 2 * H, waitedMs: 600_001 }), 0, config).allowed).toBe(true);
  });

  it("refuses a copy the queue moved to the DLQ that aged out there within a day, allows one kept a day", () => {
    const moved = (kept: number): ExpiryFact => ({ message: 0, queue: "dlq", moved: true, at: H + kept, waitedMs: 0, deadLetteredAt: H });
    expect(expiryVerdict(obs(moved(DLQ_KEEPS_MS - 1)), 0, config)).toMatchObject({ allowed: false, why: expect.stringMatching(/retries-exhausted copy reached the DLQ/) });
    expect(expiryVerdict(obs(moved(-H / 2)), 0, config).why).toMatch(/already past the DLQ's retention/);
    expect(expiryVerdict(obs(moved(DLQ_KEEPS_MS)), 0, config).allowed).toBe(true);
  });

  it("allows a quarantine's own copy to age out of the DLQ; without facts, the DLQ's retention from the first send decides", () => {
    expect(expiryVerdict(obs({ message: 0, queue: "dlq", moved: false, at: 15 * 24 * H, waitedMs: 0 }), 0, config).allowed).toBe(true);
    expect(expiryVerdict(obs(undefined, 2 * H), 0, config).allowed).toBe(false);
    expect(expiryVerdict(obs(undefined, 15 * 24 * H), 0, config).allowed).toBe(true);
  });
});
