import { CallOutcome } from "@effectively-once/contract";
import type { DlqMessage } from "./dlq";
import type { KeyEffects } from "./effects";

/** One message a producer sent, as the producer knows it. */
export interface SentMessage {
  /** The SQS message id SendMessage returned. */
  readonly messageId: string;
  /** The body as sent. */
  readonly body: string;
  /** The effect key (`<businessKey>#<operation>`, the downstream's idempotency key); undefined for a body without a valid key. */
  readonly effectKey?: string;
  /** Epoch ms. */
  readonly sentAt: number;
  /** The payload fields as the producer sent them (the payload hash), to catch a conflict acknowledged as a duplicate. */
  readonly fingerprint?: string;
  /** FIFO: the message group it was sent in (its place in the group is its place in the sent list). */
  readonly groupId?: string;
}

/** The README's guarantees checked over every key, from what a client can observe. */
export interface Verification {
  /** Messages sent. */
  readonly sent: number;
  /** Distinct effect keys among them (bodies without a valid key excluded). */
  readonly uniqueKeys: number;
  /** Keys whose effect was applied (one EFFECT item). */
  readonly applied: number;
  /** Calls the downstream saw, and how many of them were beyond the first per key (replays or conflicts). */
  readonly downstreamCalls: number;
  /** Calls beyond the first per key (replays or conflicts the downstream answered). */
  readonly repeatedCalls: number;
  /** DLQ messages by reason. */
  readonly quarantinedByReason: Record<string, number>;
  /**
   * Messages with no fate: not in the DLQ, and their key was never applied with their payload (a conflicting
   * payload acknowledged as a duplicate is lost too). Must be 0.
   */
  readonly lost: string[];
  /** Keys applied more than once. Must be 0. */
  readonly doubleApplied: string[];
  /**
   * FIFO: messages applied before an earlier message of their group that was applied too (by the effects' `appliedAt`),
   * as `<earlier messageId> > <later messageId>`. Must be 0.
   */
  readonly outOfOrder: string[];
  /** Send → effect latency per applied key, from its first message (ms). */
  readonly latencyMs: {
    /** Median. */
    readonly p50: number;
    /** 95th percentile. */
    readonly p95: number;
    /** 99th percentile. */
    readonly p99: number;
    /** The slowest key. */
    readonly max: number;
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Checks the guarantee over what a client observed: every sent message applied once (its key's EFFECT item holds its
 * payload), acknowledged as a duplicate of it, or in the DLQ; no key applied twice.
 */
export function verify(sent: readonly SentMessage[], effects: ReadonlyMap<string, KeyEffects>, dlq: readonly DlqMessage[]): Verification {
  const inDlq = new Set<string>();
  const quarantinedByReason: Record<string, number> = {};
  for (const message of dlq) {
    quarantinedByReason[message.reason] = (quarantinedByReason[message.reason] ?? 0) + 1;
    if (message.originalMessageId) inDlq.add(message.originalMessageId);
    // A message moved by the queue's redrive keeps its own id; one quarantined by the workflow is a new message.
    inDlq.add(message.messageId);
  }
  const keys = new Set(sent.flatMap((m) => (m.effectKey ? [m.effectKey] : [])));
  const firstSent = new Map<string, number>();
  for (const m of sent) if (m.effectKey && !(firstSent.get(m.effectKey)! <= m.sentAt)) firstSent.set(m.effectKey, m.sentAt);

  const fingerprints = new Map(sent.map((m) => [m.messageId, m.fingerprint]));
  const appliedWithSamePayload = (m: SentMessage): boolean => {
    const applied = m.effectKey ? effects.get(m.effectKey)?.effects[0] : undefined;
    if (!applied) return false;
    const applier = fingerprints.get(applied.messageId);
    return applier === undefined || m.fingerprint === undefined || applier === m.fingerprint;
  };
  const lost = sent.filter((m) => !inDlq.has(m.messageId) && !appliedWithSamePayload(m)).map((m) => m.messageId);
  const doubleApplied: string[] = [];
  const latencies: number[] = [];
  let applied = 0;
  let downstreamCalls = 0;
  let repeatedCalls = 0;
  for (const key of keys) {
    const e = effects.get(key);
    if (!e) continue;
    downstreamCalls += e.calls.length;
    repeatedCalls += Math.max(0, e.calls.length - 1);
    const appliedCalls = e.calls.filter((c) => c.outcome === CallOutcome.Applied).length;
    if (e.effects.length > 1 || appliedCalls > 1) doubleApplied.push(key);
    if (e.effects.length > 0) {
      applied += 1;
      const at = Date.parse(e.effects[0].appliedAt);
      if (Number.isFinite(at)) latencies.push(Math.max(0, at - firstSent.get(key)!));
    }
  }
  latencies.sort((a, b) => a - b);
  return {
    outOfOrder: outOfOrder(sent, effects),
    sent: sent.length,
    uniqueKeys: keys.size,
    applied,
    downstreamCalls,
    repeatedCalls,
    quarantinedByReason,
    lost,
    doubleApplied,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: latencies.at(-1) ?? 0 },
  };
}

/**
 * The ordering row as a client sees it (docs/guarantees.md, "Order within a message group (FIFO)"): within a group, the messages
 * whose own call applied their key did so in send order. (A message set aside in the DLQ is no exception to find here:
 * the simulation checks that row whole, tools/sim/src/oracle/order.ts.)
 */
function outOfOrder(sent: readonly SentMessage[], effects: ReadonlyMap<string, KeyEffects>): string[] {
  const appliedAt = (m: SentMessage): number | undefined => {
    const effect = m.effectKey ? effects.get(m.effectKey)?.effects.find((e) => e.messageId === m.messageId) : undefined;
    const at = effect === undefined ? NaN : Date.parse(effect.appliedAt);
    return Number.isFinite(at) ? at : undefined;
  };
  const out: string[] = [];
  const latest = new Map<string, { at: number; messageId: string }>();
  for (const m of sent) {
    const at = m.groupId === undefined ? undefined : appliedAt(m);
    if (m.groupId === undefined || at === undefined) continue;
    const before = latest.get(m.groupId);
    if (before !== undefined && before.at > at) out.push(`${before.messageId} > ${m.messageId}`);
    if (before === undefined || at >= before.at) latest.set(m.groupId, { at, messageId: m.messageId });
  }
  return out;
}
