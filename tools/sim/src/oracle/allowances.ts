/**
 * The fates the model allows a message beyond the one its content decides, each a named rule tied to the mechanism
 * that causes it (which fault, at which step, in which ledger state). A fate no rule explains is a violation, and
 * the violation names the rules it considered: the model never excuses what it cannot explain.
 */
import { DlqAttribute, QUARANTINE_MARKERS } from "@effectively-once/contract";
import { expiryVerdict } from "./retention";
import { receivesLostToOthers } from "./protocol";
import { PERMANENT_FAULTS } from "./fault-classes";
import { Fate, type Charge, type FaultKind, type Observation, type Scenario } from "../scenario/shape";
import type { Verdict } from "./verdicts";

/** What a rule may read about one sent message of a run. */
export interface MessageFacts {
  readonly scenario: Scenario;
  readonly obs: Observation;
  readonly verdicts: readonly Verdict[];
  readonly bodies: readonly string[];
  readonly message: number;
  /** The charges of its key (empty for a message that is not valid). */
  readonly charges: readonly Charge[];
  /** The keys an operator's release names (oracle/model.ts). */
  readonly released: ReadonlySet<string>;
  /** Its payload is one the downstream refuses for good (the example's currency XXX). */
  readonly downstreamRefuses: boolean;
  readonly leaseMs: number;
  readonly deadLetterRetentionMs?: number;
  /** The oldest-message-age alarm's threshold: the longest wait before receives the source queue's retention budgets. */
  readonly ageAlarmMs?: number;
  /** The source queue's retention: a copy moved back older than this is set aside again (moved-back-too-late). */
  readonly queueRetentionMs?: number;
}

export interface AllowanceRule {
  readonly name: string;
  readonly fate: Fate;
  /** One line: the mechanism that makes the fate legitimate. */
  readonly why: string;
  readonly holds: (f: MessageFacts) => boolean;
}

type Valid = Verdict & { kind: "valid" };
const validOf = (f: MessageFacts): Valid | undefined => (f.verdicts[f.message]?.kind === "valid" ? (f.verdicts[f.message] as Valid) : undefined);
const samePayload = (c: Charge, v: Valid): boolean => c.amount === v.amount && c.currency === v.currency;

/** When the message's last delivery ended: its fate was decided by then. */
/** The names of the attributes its producer sent with it. */
function producerAttributeNames(f: MessageFacts): Set<string> {
  const send = f.scenario.ops.filter((o) => o.op === "send")[f.message] as { attributes?: readonly { name: string }[] } | undefined;
  return new Set(send?.attributes?.map((a) => a.name) ?? []);
}

function lastDeliveryEnd(f: MessageFacts): number {
  const mine = f.obs.deliveries.filter((d) => d.message === f.message);
  return mine.length === 0 ? Number.POSITIVE_INFINITY : Math.max(...mine.map((d) => d.at));
}

export const Allowance = {
  PayloadApplied: "payload-applied",
  OtherPayloadApplied: "other-payload-applied",
  DownstreamRefuses: "downstream-refuses",
  PermanentFault: "permanent-fault",
  ReceivesLost: "receives-lost",
  DlqRetention: "dlq-retention",
  MovedBackTooLate: "moved-back-too-late",
  ForgedQuarantine: "forged-quarantine",
  MovedBackFollower: "moved-back-follower",
} as const;

/** Rejected by a fault the pipeline must classify permanent (a parameter, so the rule can be shown to work). */
export function permanentFaultRule(kinds: readonly FaultKind[]): AllowanceRule {
  return {
    name: Allowance.PermanentFault,
    fate: Fate.Rejected,
    why: `a fault hit it whose error the pipeline must classify permanent (oracle/fault-classes.ts: ${kinds.length === 0 ? "none of the simulated ones" : kinds.join(", ")})`,
    holds: (f) => validOf(f) !== undefined && (f.obs.messages[f.message]?.faults ?? []).some((k) => kinds.includes(k)),
  };
}

/** The model's allowances: every fate a valid message may end in other than lost, and each one's cause. */
export const ALLOWANCES: readonly AllowanceRule[] = [
  {
    name: Allowance.PayloadApplied,
    fate: Fate.Acked,
    why: "its key was charged with its own payload: applied, or acknowledged as a duplicate",
    holds: (f) => {
      const v = validOf(f);
      return v !== undefined && f.charges.some((c) => samePayload(c, v));
    },
  },
  {
    name: Allowance.OtherPayloadApplied,
    fate: Fate.Mismatch,
    // The ledger's COMPLETED claim, Powertools' COMPLETED record and the journal's EFFECT item of another payload
    // each exist only once that payload was applied (an INPROGRESS record is no conflict: conflictOnlyWhenCompleted).
    why: "another payload of its key was charged before its last delivery ended: the ledger, Powertools or the journal then holds that payload",
    holds: (f) => {
      const v = validOf(f);
      const by = lastDeliveryEnd(f);
      return v !== undefined && f.charges.some((c) => !samePayload(c, v) && c.at <= by);
    },
  },
  {
    name: Allowance.DownstreamRefuses,
    fate: Fate.Rejected,
    why: "the downstream refuses its payload for good (PermanentError, reported as PipelineRejected)",
    holds: (f) => validOf(f) !== undefined && f.downstreamRefuses,
  },
  permanentFaultRule(PERMANENT_FAULTS),
  {
    name: Allowance.ReceivesLost,
    fate: Fate.RetriesExhausted,
    // A DLQ that refuses the quarantine is one such hard fault (on that receive): a refusal on one receive excuses that one only.
    why: "every receive of its last copy was lost to a hard fault on that receive, a stall, an operator's release or another delivery of its key",
    holds: (f) => receivesLostToOthers(f.scenario, f.verdicts, f.released, f.obs, f.message, f.leaseMs),
  },
  {
    name: Allowance.MovedBackTooLate,
    fate: Fate.MovedBackTooLate,
    why:
      "SQS's redrive-policy path moved its quarantined copy back (ops/redrive-policy-move.ts), delivered more than the source queue's retention after its first send, " +
      "or its producer sent a firstSentTimestamp, which the quarantine kept (it can make a copy look older, never younger): its key's memory may have ended (docs/guarantees.md, paths back from the DLQ)",
    holds: (f) =>
      f.queueRetentionMs !== undefined &&
      (f.obs.nativeActions ?? []).some((a) => a.action === "redrive-policy" && !a.refused && a.messages.includes(f.message)) &&
      (lastDeliveryEnd(f) - (f.obs.messages[f.message]?.sentAt ?? 0) > f.queueRetentionMs || producerAttributeNames(f).has(DlqAttribute.FirstSentTimestamp)),
  },
  {
    name: Allowance.ForgedQuarantine,
    fate: Fate.MovedBackTooLate,
    why: "its producer sent every attribute that marks a quarantined copy (QUARANTINE_MARKERS), so the workflow read its firstSentTimestamp, which may make it look older, never younger (docs/guarantees.md)",
    holds: (f) => {
      const names = producerAttributeNames(f);
      return QUARANTINE_MARKERS.every((name) => names.has(name));
    },
  },
  {
    name: Allowance.MovedBackFollower,
    fate: Fate.MovedBackTooLate,
    why: "a message with its very body was set aside as moved-back-too-late, and a batch's identical bodies share their leader's quarantine (the in-batch follower rule): in the DLQ with that reason, its own first send kept",
    holds: (f) => f.bodies.some((body, j) => j !== f.message && body === f.bodies[f.message] && f.obs.messages[j]?.fate === Fate.MovedBackTooLate),
  },
  {
    name: Allowance.DlqRetention,
    fate: Fate.Expired,
    why: "its retention ran out where the settings allow it (oracle/retention.ts): a source-queue wait the age alarm would have caught, or the DLQ's retention after its copy's due time there",
    holds: (f) => expiryVerdict(f.obs, f.message, f).allowed,
  },
];

/** The fates the rules allow, each with the names of the rules that allow it. */
export function allowedBy(rules: readonly AllowanceRule[], facts: MessageFacts): Map<Fate, string[]> {
  const out = new Map<Fate, string[]>();
  for (const rule of rules) if (rule.holds(facts)) out.set(rule.fate, [...(out.get(rule.fate) ?? []), rule.name]);
  return out;
}

/** "rules considered for <fate>: a (why), b (why)", or that none speaks of it. */
export function consideredText(rules: readonly AllowanceRule[], fate: Fate): string {
  const about = rules.filter((r) => r.fate === fate);
  return about.length === 0 ? `no allowance speaks of ${fate}` : `allowances considered for ${fate}, none holds: ${about.map((r) => `${r.name} (${r.why})`).join("; ")}`;
}
