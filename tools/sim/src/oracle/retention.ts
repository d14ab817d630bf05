/**
 * The model's rule for a message that aged out of a queue (`expired`), from the retention promises (docs/guarantees.md, docs/construct.md) rather
 * than from the construct's arithmetic:
 *
 * - The source queue keeps a message through all its receives: one that keeps failing reaches the DLQ
 *   (`retries-exhausted`), it never ages out of the source queue. Outside the model: a message that waited, visible
 *   and unreceived (a stalled host, a busy or stopped pipe), longer in all than the oldest-message-age alarm's
 *   threshold; the construct budgets that long a wait and no longer, and the alarm has fired by then.
 * - The DLQ keeps a copy the queue moved there at least a day (it keeps the first send's time, so the source
 *   queue's retention must leave that much of the DLQ's): time for the DLQ alarm to be seen and the copy redriven.
 * - A quarantine's own copy lives the DLQ's whole retention from its send.
 */
import type { ExpiryFact } from "../facts/records";
import type { Observation } from "../scenario/shape";

/** How long the DLQ must keep a copy the queue moved there (docs/construct.md: "≥ source retention + 1 day"). */
export const DLQ_KEEPS_MS = 24 * 3600_000;

export interface RetentionConfig {
  /** The DLQ's retention: nothing outlives it, counted from the first send. */
  readonly deadLetterRetentionMs?: number;
  /** The oldest-message-age alarm's threshold: the longest wait the construct budgets for. */
  readonly ageAlarmMs?: number;
}

/** Whether the message may have aged out, and if not, why its expiry breaks a promise. */
export function expiryVerdict(obs: Observation, message: number, config: RetentionConfig): { readonly allowed: boolean; readonly why?: string } {
  const seen = obs.messages[message];
  const facts = (obs.expiries ?? []).filter((f) => f.message === message);
  const fact: ExpiryFact | undefined = facts[facts.length - 1];
  const old = seen !== undefined && config.deadLetterRetentionMs !== undefined && obs.endedAt - seen.sentAt > config.deadLetterRetentionMs;
  if (fact === undefined || seen === undefined) return { allowed: old };
  if (fact.queue === "source") {
    if (config.ageAlarmMs === undefined) return { allowed: old };
    if (fact.waitedMs > config.ageAlarmMs) return { allowed: true };
    return {
      allowed: false,
      why: `it aged out of the source queue ${hours(fact.at - seen.sentAt)} after its first send, having waited unreceived only ${hours(fact.waitedMs)} (the age alarm budgets ${hours(config.ageAlarmMs)}): its retention ran out before its receives did, so it never reached the DLQ`,
    };
  }
  if (!fact.moved || fact.deadLetteredAt === undefined) return { allowed: true };
  const kept = fact.at - fact.deadLetteredAt;
  if (kept >= DLQ_KEEPS_MS) return { allowed: true };
  return {
    allowed: false,
    why: `its retries-exhausted copy reached the DLQ ${hours(fact.deadLetteredAt - seen.sentAt)} after its first send and ${kept <= 0 ? "was already past the DLQ's retention" : `aged out ${hours(kept)} later`} (the DLQ counts from the first send): a copy the queue moves must stay at least a day`,
  };
}

function hours(ms: number): string {
  return ms >= 3_600_000 ? `${(ms / 3_600_000).toFixed(1)} h` : `${Math.round(ms / 1000)} s`;
}
