import { duration, humanDate } from "./format";
import { requireSecondsOutput } from "./outputs";
import { OutputName, type DlqEntry, type OpsContext } from "./types";

/**
 * How old a message may be and still be redriven safely.
 *
 * The ledger (and Powertools) remember a key for `retention_seconds` from the claim, and the claim is never
 * earlier than the message's first send. A copy sent back now may wait in the source queue up to
 * `message_retention_seconds` before it is processed. So the copy is still recognised as long as
 *
 *     age (now − first send) + message retention  ≤  retention,   i.e.   age ≤ retention − message retention
 *
 * With the defaults (14 days, 4 days) a message may be redriven up to 10 days after its first send. Older ones
 * are refused unless forced: the ledger may have forgotten their key and the effect could be applied again.
 */
export interface RedriveWindow {
  readonly retentionSeconds: number;
  readonly messageRetentionSeconds: number;
  /** The largest safe age, in ms (0 or less: nothing is safe). */
  readonly maxAgeMs: number;
}

export function redriveWindowOf(ctx: Pick<OpsContext, "outputs" | "targetLabel">): RedriveWindow {
  const retentionSeconds = requireSecondsOutput(ctx, OutputName.RetentionSeconds);
  const messageRetentionSeconds = requireSecondsOutput(ctx, OutputName.MessageRetentionSeconds);
  return { retentionSeconds, messageRetentionSeconds, maxAgeMs: (retentionSeconds - messageRetentionSeconds) * 1000 };
}

/** The first send's age when it is beyond the window (or unknown, which cannot be proven safe); else undefined. */
export function ageBeyondWindow(window: RedriveWindow, entry: DlqEntry, nowMs: number): { ageMs?: number } | undefined {
  if (entry.firstSentAt === undefined) return {};
  const ageMs = nowMs - entry.firstSentAt;
  return ageMs > window.maxAgeMs ? { ageMs } : undefined;
}

/** "retention 14 d − source queue retention 4 d = 10 d", the figures behind every refusal. */
export function windowText(window: RedriveWindow): string {
  const d = (seconds: number) => duration(seconds * 1000);
  return `ledger retention ${d(window.retentionSeconds)} − source queue retention ${d(window.messageRetentionSeconds)} = ${d(Math.max(0, window.maxAgeMs / 1000))}`;
}

export function tooOldReason(window: RedriveWindow, entry: DlqEntry, nowMs: number): string {
  const first = entry.firstSentAt === undefined ? "an unknown time" : `${humanDate(entry.firstSentAt)} (${duration(nowMs - entry.firstSentAt)} ago)`;
  return `first sent ${first}, older than a redrive can safely be (${windowText(window)})`;
}
