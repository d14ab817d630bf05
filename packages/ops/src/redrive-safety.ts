import { ClaimStatus } from "@effectively-once/contract";
import { duration, humanDate } from "./format";
import { requireSecondsOutput } from "./outputs";
import { type DlqEntry, type OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";
import { DlqReason } from "@effectively-once/contract";
import { isFifoQueue } from "@effectively-once/contract";

/**
 * When a DLQ message may be sent back without risking a second application of its key.
 *
 * The promise (docs/guarantees.md, "The redrive rule"): a message first sent at `t` must be recognised against any charge of
 * its key after `t − W`, where `W = retention − message retention` (14 d − 4 d = 10 d by default). A copy sent back
 * now (`n`) is last delivered before `n + Q` (Q = the source queue's retention). Both layers remember a charge for
 * the retention `R` from its completion — Powertools always; the ledger only while nothing takes its claim away early
 * (a Complete that failed after the invocation leaves an IN_PROGRESS claim any later message may take over and
 * release; an operator may release it). So the key's *memory* is the later-expiring COMPLETED record of either layer,
 * and a redrive is safe when one of these holds:
 *
 * 1. **A layer holds the key COMPLETED until at least `n + Q`**: the copy is answered from it (a duplicate, or
 *    payload-mismatch). Only a COMPLETED record proves it: an IN_PROGRESS claim can still be released.
 * 2. **The message was `rejected`**: the function ran it, so Powertools held no completed charge of the key then (it
 *    would have answered from it, or found a conflict), i.e. at the quarantine's `SentTimestamp` `q`: every earlier
 *    charge is before `q − R`, outside the promise when `q ≤ t + Q`; and the age `n − t ≤ W` covers a later charge.
 * 3. **Any message, when its age `n − t ≤ Q`** (the only way for one that never reached the ledger, e.g.
 *    `retries-exhausted` after its Inspect failed on every receive, or `invalid-message`, which may pass once the
 *    rules change): a charge neither layer holds completed ended Powertools' memory before `n`, so it was before
 *    `n − R`, outside the promise (`t − W`) exactly when `n − t ≤ R − W = Q`. The ledger alone cannot say so.
 *
 * A COMPLETED item that expires before `n + Q` refuses the redrive (the copy may come after the ledger forgot),
 * unless the message was first sent W or more after that charge completed: then it is past the charge's promise.
 */
export interface RedriveWindow {
  readonly retentionSeconds: number;
  readonly messageRetentionSeconds: number;
  /** W: the largest age the promise covers, in ms (retention − message retention; 0 or less: nothing is safe). */
  readonly maxAgeMs: number;
  /**
   * FIFO queues: SQS resets a message's enqueue timestamp when it moves it to a FIFO DLQ (SQS Developer Guide,
   * "Setting-up dead-letter queue retention"); whether its SentTimestamp follows is not documented. A copy the queue
   * moved is then taken as first sent as early as it can have been: its SentTimestamp − the source queue's retention.
   */
  readonly fifo?: boolean;
}

export function redriveWindowOf(ctx: Pick<OpsContext, "outputs" | "targetLabel">): RedriveWindow {
  const retentionSeconds = requireSecondsOutput(ctx, OutputName.RetentionSeconds);
  const messageRetentionSeconds = requireSecondsOutput(ctx, OutputName.MessageRetentionSeconds);
  const queueUrl = ctx.outputs[OutputName.QueueUrl];
  const fifo = typeof queueUrl === "string" && isFifoQueue(queueUrl);
  return { retentionSeconds, messageRetentionSeconds, maxAgeMs: (retentionSeconds - messageRetentionSeconds) * 1000, ...(fifo ? { fifo } : {}) };
}

/**
 * The entry with the first send the rule may count on: in a FIFO DLQ, a copy the queue moved may carry its move's time
 * as SentTimestamp (see RedriveWindow.fifo), so it counts as sent a source retention earlier.
 */
export function withProvenFirstSent(window: RedriveWindow, entry: DlqEntry): DlqEntry {
  if (!window.fifo || !entry.movedByQueue || entry.sentAt === undefined) return entry;
  return { ...entry, firstSentAt: Math.min(entry.firstSentAt ?? Infinity, entry.sentAt - window.messageRetentionSeconds * 1000) };
}

/** What the layers hold for the message's key, as the rule needs it: COMPLETED with the later expiry of the two, else the ledger's claim, else absent. */
export interface KeyMemory {
  readonly status: string;
  /** Epoch ms (the item's `expiresAt` × 1000). */
  readonly expiresAtMs?: number;
}

/** Why redriving `entry` now could apply its key twice; undefined when it is safe. */
export function redriveRisk(window: RedriveWindow, given: DlqEntry, memory: KeyMemory | undefined, nowMs: number): string | undefined {
  const entry = withProvenFirstSent(window, given);
  const queueMs = window.messageRetentionSeconds * 1000;
  const lastDelivery = nowMs + queueMs;
  if (memory?.status === ClaimStatus.Completed && memory.expiresAtMs !== undefined && memory.expiresAtMs >= nowMs) {
    if (memory.expiresAtMs >= lastDelivery) return undefined;
    // First sent W or more after that charge completed (expiresAt − R): past its promise, a new application by design.
    if (entry.firstSentAt !== undefined && entry.firstSentAt >= memory.expiresAtMs - queueMs) return undefined;
    return (
      `the pipeline forgets its key on ${humanDate(memory.expiresAtMs)}, before the copy's last possible delivery ` +
      `(now + source queue retention ${duration(queueMs)} = ${humanDate(lastDelivery)}), and the key was applied`
    );
  }
  if (entry.firstSentAt === undefined) return "its first send is unknown, so its age cannot be proven safe";
  const ageMs = nowMs - entry.firstSentAt;
  const first = `first sent ${humanDate(entry.firstSentAt)} (${duration(ageMs)} ago)`;
  if (ageMs <= queueMs) return undefined;
  const claimedFirst = entry.reason === DlqReason.Rejected && entry.sentAt !== undefined && entry.sentAt <= entry.firstSentAt + queueMs;
  if (claimedFirst && ageMs <= window.maxAgeMs) return undefined;
  if (claimedFirst) return `${first}, older than a rejected message can safely be (${windowText(window)})`;
  const ledger =
    entry.businessKey === undefined
      ? "its business key is unknown (no `business_key_expression` output, or pass --key-expression), so the ledger cannot vouch for it"
      : "neither the ledger nor the function's idempotency record holds its key completed";
  return (
    `${first}, more than the source queue's retention (${duration(queueMs)}), and ${ledger}: it may be a resend of a key applied before it was first sent that the ledger has since forgotten ` +
    `(the pipeline recognises resends up to ${windowText(window)} after a charge)`
  );
}

/** "ledger retention 14 d − source queue retention 4 d = 10 d", the figures behind a refusal. */
function windowText(window: RedriveWindow): string {
  const d = (seconds: number) => duration(seconds * 1000);
  return `ledger retention ${d(window.retentionSeconds)} − source queue retention ${d(window.messageRetentionSeconds)} = ${d(Math.max(0, window.maxAgeMs / 1000))}`;
}
