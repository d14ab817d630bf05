/**
 * A queue's `max_message_size` lowered in place (SQS's SetQueueAttributes; the provider updates it without a
 * replacement). Every message the queue accepted under the old limit that is over the new one stays where it is (in
 * the queue, or quarantined in the DLQ) but can no longer come back through the queue: `pipeline-ops dlq redrive`
 * refuses its copy, and SQS refuses the console's redrive and a resend by hand. Release 0.3 lowered the default
 * `maxMessageBytes` from 120 KiB to 6 KiB, so a plain upgrade does this (docs/upgrading.md).
 *
 * Offline the flag comes from Terraform's own before/after (a seeded state) or from the baseline configuration;
 * online from the real state. Neither mode reads the DLQ's messages: SQS has no read-only way to see a message's
 * size (a receive changes its receive count and visibility), so the flag names the figures and the commands that do.
 */
import { PlanAction } from "../plan-json";
import { RiskKind, Severity, type QueueSettings, type ResourceSettings, type RiskFlag } from "./types";

/** The part of a resource transition (risks.ts) this rule reads. */
interface Transition {
  readonly address: string;
  readonly action: PlanAction;
  readonly basis: RiskFlag["basis"];
  readonly before: { readonly name: string | null; readonly settings?: ResourceSettings } | null;
  readonly after: { readonly name: string | null; readonly settings?: ResourceSettings } | null;
}

const queue = (side: Transition["before"]): QueueSettings | undefined => (side?.settings?.kind === "queue" ? side.settings : undefined);

/** SQS's default `MaximumMessageSize` (AWS: "Default: 262,144 (256 KiB)"), which an unset `max_message_size` means. */
const SQS_DEFAULT_MAX_MESSAGE_BYTES = 262_144;

const bytesOf = (s: QueueSettings): number | undefined =>
  typeof s.maxMessageBytes === "number" ? s.maxMessageBytes : s.maxMessageBytes === null ? SQS_DEFAULT_MAX_MESSAGE_BYTES : undefined;

const kib = (bytes: number) => `${bytes.toLocaleString("en-US")} bytes (${(bytes / 1024).toFixed(1)} KiB)`;

/** One flag per queue whose maximum message size falls (an update in place; a replacement is flagged as data loss). */
export function messageSizeRisks(transitions: readonly Transition[]): RiskFlag[] {
  return transitions.flatMap((t): RiskFlag[] => {
    if (t.action === PlanAction.Destroy || t.action === PlanAction.Replace) return [];
    const [before, after] = [queue(t.before), queue(t.after)];
    if (!before || !after) return [];
    const [old, now] = [bytesOf(before), bytesOf(after)];
    if (old === undefined || now === undefined || now >= old) return [];
    const name = t.after?.name ?? t.before?.name ?? t.address;
    const source = after.redriveTarget !== null;
    return [
      {
        kind: RiskKind.MessageSizeReduced,
        severity: Severity.High,
        address: t.address,
        basis: t.basis,
        message:
          `MESSAGES STRANDED: ${name}'s maximum message size falls from ${kib(old)} to ${kib(now)}, in place. ` +
          `A message it accepted under the old limit that is over the new one can no longer come back through it${source ? ", from its DLQ (kept for the DLQ's retention) or" : ""} by hand: ` +
          "`pipeline-ops dlq redrive` refuses the copy even with --force, SQS refuses the console's redrive and a resend. " +
          (source
            ? "Before deploying, let the queue drain and empty the DLQ under the old limit (`pipeline-ops dlq list`, `dlq redrive`); after it, a larger copy comes back only with `pipeline-ops dlq redrive --direct` (the state machine, not the queue). " +
              "To see whether any is at stake: the DLQ's CloudWatch `SentMessageSize` (Maximum, over its retention) bounds what it holds. "
            : "") +
          "Or keep the old limit (`maxMessageBytes`). Order of steps: docs/upgrading.md.",
      },
    ];
  });
}
