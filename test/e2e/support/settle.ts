import { waitFor } from "@effectively-once/testing";
import { DlqReason } from "@effectively-once/contract";
import type { DlqCollector, DlqEntry } from "./dlq";
import { SettleTimeoutError } from "./errors";
import { countEffects, readDownstream, type DownstreamRecord, type EffectCounts } from "./observe";
import type { Sent } from "./publish";
import type { E2eTarget } from "./target";

/**
 * The final fate of a message, as a client sees it:
 * - `applied`: the downstream's charge for its key carries its messageId;
 * - `duplicate`: gone from the queue, not in the DLQ, its key applied by another message with the same payload,
 *   and it made no downstream call of its own;
 * - `quarantined:<reason>`: in the DLQ with the state machine's reason;
 * - `retries-exhausted`: moved to the DLQ by the queue's redrive (no reason attribute).
 * - `replayed-by-downstream`: its key was applied by another message, yet it called the downstream, which
 *   answered with the stored charge. Expected only once the retention window has passed (the ledger and
 *   Powertools forgot the key, the downstream not yet); within the window the first layers should have stopped it.
 * Anything else is a broken guarantee: `acknowledged-with-other-payload` (a conflict taken for a duplicate),
 * `lost` (gone without a trace), and several fates joined by `+`.
 */
export type Fate = string;

export interface Settlement {
  /** messageId → fate. */
  readonly fates: Record<string, Fate>;
  /** business key → charges and calls. */
  readonly effects: Record<string, EffectCounts>;
  readonly downstream: Record<string, DownstreamRecord>;
  /** DLQ entries of these messages. */
  readonly dlq: readonly DlqEntry[];
}

interface Snapshot {
  readonly dlq: readonly DlqEntry[];
  readonly downstream: Record<string, DownstreamRecord>;
}

/**
 * Waits until every message has reached a fate and the source queue is empty, then reads the final state.
 * Only the AWS SDK is used: the queue's attributes (through `target.quiesce`), the DLQ and the effects table.
 */
export async function settle(target: E2eTarget, dlq: DlqCollector, sent: readonly Sent[]): Promise<Settlement> {
  const timeoutMs = target.settleTimeoutMs;
  const deadline = Date.now() + timeoutMs;
  let last: Snapshot | undefined;
  try {
    await waitFor(
      async () => {
        last = await observe(target, dlq, sent);
        return sent.every((message) => reachedFate(message, last!));
      },
      { timeoutMs, intervalMs: target.pollIntervalMs, message: "every message reached a fate" },
    );
    await target.quiesce(Math.max(deadline - Date.now(), 1_000));
  } catch (error) {
    const fates = last ? fatesOf(sent, last) : {};
    throw new SettleTimeoutError(
      `messages did not settle within ${timeoutMs} ms: ${(error as Error).message}\nfates so far: ${JSON.stringify(fates)}`,
      { cause: error },
    );
  }
  const final = await observe(target, dlq, sent);
  const ids = new Set(sent.map((m) => m.messageId));
  return {
    fates: fatesOf(sent, final),
    effects: Object.fromEntries(Object.entries(final.downstream).map(([key, record]) => [key, countEffects(record)])),
    downstream: final.downstream,
    dlq: final.dlq.filter((entry) => ids.has(entry.originalMessageId ?? "") || ids.has(entry.messageId)),
  };
}

async function observe(target: E2eTarget, dlq: DlqCollector, sent: readonly Sent[]): Promise<Snapshot> {
  const keys = [...new Set(sent.flatMap((m) => (m.key ? [m.key] : [])))];
  const [entries, records] = await Promise.all([dlq.collect(), Promise.all(keys.map((key) => readDownstream(target, key)))]);
  return { dlq: entries, downstream: Object.fromEntries(keys.map((key, i) => [key, records[i]])) };
}

function reachedFate(message: Sent, snapshot: Snapshot): boolean {
  return dlqFates(message, snapshot).length > 0 || (message.key !== undefined && snapshot.downstream[message.key]?.effect !== undefined);
}

function fatesOf(sent: readonly Sent[], snapshot: Snapshot): Record<string, Fate> {
  return Object.fromEntries(sent.map((message) => [message.messageId, fateOf(message, snapshot)]));
}

function dlqFates(message: Sent, snapshot: Snapshot): Fate[] {
  const fates: Fate[] = [];
  for (const entry of snapshot.dlq) {
    // The state machine's quarantine sends a new message naming the original; the queue's redrive moves the
    // message itself, keeping its id.
    if (entry.reason !== undefined && entry.originalMessageId === message.messageId) fates.push(`quarantined:${entry.reason}`);
    if (entry.reason === undefined && entry.messageId === message.messageId) fates.push(DlqReason.RetriesExhausted);
  }
  return fates;
}

function fateOf(message: Sent, snapshot: Snapshot): Fate {
  const fates = dlqFates(message, snapshot);
  const record = message.key === undefined ? undefined : snapshot.downstream[message.key];
  if (record?.effect?.messageId === message.messageId) fates.push("applied");
  if (fates.length === 0 && record?.effect) {
    if (record.calls.some((call) => call.messageId === message.messageId)) fates.push("replayed-by-downstream");
    else if (!samePayload(record.effect, message.body)) fates.push("acknowledged-with-other-payload");
    else fates.push("duplicate");
  }
  return fates.length > 0 ? fates.join("+") : "lost";
}

function samePayload(charge: Record<string, unknown>, body: string): boolean {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return parsed.amount === charge.amount && parsed.currency === charge.currency;
  } catch {
    return false;
  }
}
