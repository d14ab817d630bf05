/**
 * The redrive rule searched against every history it could be wrong about: an earlier charge of the key by another
 * message (or none), the DLQ message never reaching the ledger or rejected under its own claim, the ledger as that
 * history leaves it when the operator redrives, and every moment the copy could be delivered. Whenever the rule
 * says "safe", no delivery may charge the key again within the oracle's promise (a message first sent before an
 * earlier charge + W must be recognised; tools/sim/src/oracle/model.ts). The old rule (age ≤ W alone) must fail the same search.
 * The ledger may lose the charge early (a Complete that failed after the invocation, a released takeover, an
 * operator's release) while the function's Powertools record keeps it for the retention from its completion: a rule
 * that reads the ledger alone must fail the search too.
 */
import fc from "fast-check";
import { ClaimStatus } from "@effectively-once/contract";
import { redriveRisk, type KeyMemory, type RedriveWindow } from "../src/redrive-safety";
import { DlqReason } from "@effectively-once/contract";
import type { DlqEntry } from "../src/types";

const HOUR = 3600;
const DAY = 24 * HOUR;

interface History {
  readonly retention: number;
  readonly queueRetention: number;
  /** The earlier charge of the key by another message (completion time), if any. */
  readonly charge?: number;
  /** Seconds after the charge at which the ledger lost it (Complete failed, a takeover released, an operator's release); undefined: kept. */
  readonly ledgerLoss?: number;
  readonly kind: "unseen" | "rejected";
  readonly firstSent: number;
  /** rejected: when its claim was taken and when it was quarantined. */
  readonly claimedAt: number;
  readonly quarantinedAt: number;
  readonly redriveAt: number;
  /** When the copy is delivered, as a fraction of the source queue's retention after the redrive. */
  readonly deliveryFraction: number;
}

const seconds = (max: number) => fc.integer({ min: 0, max });

const history: fc.Arbitrary<History> = fc
  .record({
    retention: fc.integer({ min: 2 * HOUR, max: 20 * DAY }),
    queueShare: fc.double({ min: 0.01, max: 0.99, noNaN: true }),
    charge: fc.option(seconds(60 * DAY), { nil: undefined }),
    ledgerLoss: fc.option(seconds(20 * DAY), { nil: undefined, freq: 2 }),
    kind: fc.constantFrom("unseen" as const, "rejected" as const),
    firstSent: seconds(60 * DAY),
    claimDelay: seconds(20 * DAY),
    quarantineDelay: seconds(2 * DAY),
    redriveDelay: seconds(30 * DAY),
    deliveryFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((h) => {
    const queueRetention = Math.max(1, Math.floor(h.retention * h.queueShare));
    const claimedAt = h.firstSent + h.claimDelay;
    const quarantinedAt = claimedAt + h.quarantineDelay;
    const lastEvent = Math.max(h.firstSent, h.kind === "rejected" ? quarantinedAt : 0, h.charge ?? 0);
    return { retention: h.retention, queueRetention, charge: h.charge, ledgerLoss: h.ledgerLoss, kind: h.kind, firstSent: h.firstSent, claimedAt, quarantinedAt, redriveAt: lastEvent + h.redriveDelay, deliveryFraction: h.deliveryFraction };
  })
  // A rejected message ran under a fresh claim: neither layer remembered the earlier charge then, and no other
  // message could charge the key while the claim was held.
  .filter((h) => h.kind !== "rejected" || h.charge === undefined || h.charge + h.retention < h.claimedAt || h.charge > h.quarantinedAt);

/** What the layers remember at `time`: the function's Powertools record of the earlier charge, COMPLETED while it is live. */
function memoryAt(h: History, time: number): KeyMemory | undefined {
  return h.charge !== undefined && h.charge + h.retention >= time ? { status: ClaimStatus.Completed, expiresAtMs: (h.charge + h.retention) * 1000 } : undefined;
}

/** The ledger alone at `time`: the same COMPLETED item, unless the history took it away early. */
function ledgerAt(h: History, time: number): KeyMemory | undefined {
  return h.charge !== undefined && h.ledgerLoss !== undefined && time >= h.charge + h.ledgerLoss ? undefined : memoryAt(h, time);
}

/** The violation the copy's delivery causes, if any. */
function violation(h: History): string | undefined {
  const delivery = Math.floor(h.redriveAt + h.deliveryFraction * h.queueRetention);
  if (memoryAt(h, delivery) !== undefined || h.charge === undefined) return undefined;
  const promise = h.charge + (h.retention - h.queueRetention);
  return h.firstSent < promise ? `charged again on ${delivery}: first sent ${h.firstSent}, before the charge on ${h.charge} + W (${promise})` : undefined;
}

function entryOf(h: History): DlqEntry {
  const sentAt = (h.kind === "rejected" ? h.quarantinedAt : h.firstSent) * 1000;
  return {
    messageId: "m",
    reason: h.kind === "rejected" ? DlqReason.Rejected : DlqReason.RetriesExhausted,
    businessKey: '["t1","o-1"]',
    originalMessageId: "m",
    body: "{}",
    sentAt,
    firstSentAt: h.firstSent * 1000,
  };
}

const windowOf = (h: History): RedriveWindow => ({ retentionSeconds: h.retention, messageRetentionSeconds: h.queueRetention, maxAgeMs: (h.retention - h.queueRetention) * 1000 });

type Rule = (h: History) => boolean;
const newRule: Rule = (h) => redriveRisk(windowOf(h), entryOf(h), memoryAt(h, h.redriveAt), h.redriveAt * 1000) === undefined;
/** The rule before the ledger was read: the message's own age within retention − source retention. */
const oldRule: Rule = (h) => h.redriveAt - h.firstSent <= h.retention - h.queueRetention;
/** The rule reading the ledger alone (before the Powertools record was read too). */
const ledgerOnlyRule: Rule = (h) => redriveRisk(windowOf(h), entryOf(h), ledgerAt(h, h.redriveAt), h.redriveAt * 1000) === undefined;

const safeRedrivesCharge = (rule: Rule) => fc.property(history, (h) => !rule(h) || violation(h) === undefined);

describe("redrive rule: searched against histories", () => {
  it("never lets a redrive charge a key again within its promise (20,000 histories)", () => {
    fc.assert(safeRedrivesCharge(newRule), { numRuns: 20_000, seed: 20261201 });
  });

  it("still lets most redrives through: not a rule that refuses everything", () => {
    const sample = fc.sample(history, { numRuns: 20_000, seed: 7 });
    // Young messages whose key the ledger does not hold (a COMPLETED item about to expire is the one reason to refuse them).
    const young = sample.filter((h) => h.redriveAt - h.firstSent <= h.queueRetention && memoryAt(h, h.redriveAt) === undefined);
    expect(young.length).toBeGreaterThan(50);
    expect(young.every(newRule)).toBe(true);
    // Rejected messages quarantined on their first life keep the full W; a COMPLETED key lets any age through.
    const age = (h: History) => h.redriveAt - h.firstSent;
    const rejected = sample.filter((h) => h.kind === "rejected" && h.quarantinedAt <= h.firstSent + h.queueRetention && age(h) > h.queueRetention && age(h) <= h.retention - h.queueRetention);
    expect(rejected.length).toBeGreaterThan(50);
    expect(rejected.every(newRule)).toBe(true);
    const remembered = sample.filter((h) => memoryAt(h, h.redriveAt + h.queueRetention) !== undefined);
    expect(remembered.length).toBeGreaterThan(50);
    expect(remembered.every(newRule)).toBe(true);
  });

  it("the same search finds the hole in a rule that reads the ledger alone: a charge the ledger lost early", () => {
    const result = fc.check(safeRedrivesCharge(ledgerOnlyRule), { numRuns: 20_000, seed: 20261201 });
    expect(result.failed).toBe(true);
    const [h] = result.counterexample as [History];
    expect(h.ledgerLoss).toBeDefined();
    expect(violation(h)).toMatch(/^charged again/);
  });

  it("the same search finds the hole in the old rule (age ≤ W alone): a resend redriven after the ledger forgot", () => {
    const result = fc.check(safeRedrivesCharge(oldRule), { numRuns: 20_000, seed: 20261201 });
    expect(result.failed).toBe(true);
    const [h] = result.counterexample as [History];
    expect(violation(h)).toMatch(/^charged again/);
  });
});
