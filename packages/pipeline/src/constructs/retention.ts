import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import { lambdaAttempts } from "./invocation-budget";
import type { ResolvedPipelineProps } from "./props";

/**
 * How much longer than the source queue the DLQ keeps a message. SQS keeps a standard queue's first-send time
 * when it moves a message to the DLQ, so a copy moved at the very end of its source life has only
 * deadLetterRetentionSeconds − messageRetentionSeconds left there: a day for the DLQ alarm to be seen and the copy
 * to be inspected or redriven, instead of a copy deleted as it arrives. A FIFO queue's DLQ resets the enqueue time
 * at the move ("For FIFO queues, the enqueue timestamp resets when the message is moved to a dead-letter queue", SQS
 * Developer Guide, "Setting-up dead-letter queue retention"): there the DLQ's own retention is the copy's time.
 */
const DLQ_GRACE_SECONDS = 24 * 3600;

/** The longest a copy of a message can exist after its first send: in the DLQ until its retention, counted from the first send (standard) or from the move (FIFO). */
function longestCopySeconds(p: ResolvedPipelineProps): number {
  return p.fifo ? p.messageRetentionSeconds + p.deadLetterRetentionSeconds : p.deadLetterRetentionSeconds;
}

/**
 * SQS's longest long poll (20 s), which the pipe's pollers use. The receive that moves a message to the DLQ comes
 * after its last visibility timeout ran out, up to one long poll later: without this the source queue could delete
 * it at that very moment (found by the settings search at the exact bound).
 */
export const LONG_POLL_SECONDS = 20;

/**
 * How long each store keeps a message or a key, so none forgets one while a later step still needs it: the ledger
 * outlives an invocation and both queues, the source queue outlives a message's retries, the DLQ outlives the
 * source queue.
 */
export const RETENTION_RULES: readonly PropRule[] = [
  {
    // Checked first so that a small retention is refused naming the run it would cut short.
    name: "retentionSeconds.invocation",
    after: ["executionTimeoutSeconds", "function.timeoutSeconds", "lambdaRetries"],
    check: ledgerOutlivesInvocation,
  },
  {
    // SQS counts retention from the first send and moves a message to the DLQ on the receive after its
    // maxReceiveCount-th; each of those receives hides it for visibilityTimeoutSeconds. The batching window runs
    // inside that timeout (its clock starts at the receive), so it adds nothing per receive. What the receives do not
    // cover is the wait before the first one (a backlog, a stalled pipe), which has no bound: the age alarm is the
    // pipeline's own limit for it, so the queue keeps a message that long plus all its receives, and a message that
    // waits longer has raised the alarm before its retention can run out.
    name: "messageRetentionSeconds.receives",
    after: ["messageRetentionSeconds", "maxReceiveCount", "visibilityTimeoutSeconds", "oldestMessageAgeAlarmSeconds"],
    check: (p) => {
      const receives = p.maxReceiveCount * p.visibilityTimeoutSeconds;
      const minMessageRetention = p.oldestMessageAgeAlarmSeconds + receives + LONG_POLL_SECONDS;
      if (p.messageRetentionSeconds >= minMessageRetention) return undefined;
      return {
        prop: "messageRetentionSeconds",
        value: p.messageRetentionSeconds,
        reason:
          `is below oldestMessageAgeAlarmSeconds ${p.oldestMessageAgeAlarmSeconds} + maxReceiveCount × visibilityTimeoutSeconds + one long poll ` +
          `(${p.oldestMessageAgeAlarmSeconds} + ${p.maxReceiveCount} × ${p.visibilityTimeoutSeconds} + ${LONG_POLL_SECONDS} = ${minMessageRetention}); a message that waits for its first receive and then fails every receive would expire in the source queue before the DLQ gets it, lost without a trace`,
        fix: `set messageRetentionSeconds >= ${minMessageRetention}, or lower maxReceiveCount, visibilityTimeoutSeconds or oldestMessageAgeAlarmSeconds`,
      };
    },
  },
  {
    name: "deadLetterRetentionSeconds.grace",
    after: ["messageRetentionSeconds", "deadLetterRetentionSeconds"],
    check: (p) => {
      const minDeadLetterRetention = (p.fifo ? 0 : p.messageRetentionSeconds) + DLQ_GRACE_SECONDS;
      if (p.deadLetterRetentionSeconds >= minDeadLetterRetention) return undefined;
      if (p.fifo) {
        return {
          prop: "deadLetterRetentionSeconds",
          value: p.deadLetterRetentionSeconds,
          reason: `is below one day (${DLQ_GRACE_SECONDS}); a FIFO DLQ counts a moved copy's retention from the move (AWS), and a day is what the DLQ alarm needs to be seen and the copy inspected or redriven`,
          fix: `set deadLetterRetentionSeconds >= ${DLQ_GRACE_SECONDS}`,
        };
      }
      return {
        prop: "deadLetterRetentionSeconds",
        value: p.deadLetterRetentionSeconds,
        reason: `is below messageRetentionSeconds + one day (${p.messageRetentionSeconds} + ${DLQ_GRACE_SECONDS} = ${minDeadLetterRetention}); the DLQ keeps a retries-exhausted copy's first-send time (AWS), so a copy moved late in its source life would be deleted as it arrives, or too soon for anyone to see it`,
        fix: `set deadLetterRetentionSeconds >= ${minDeadLetterRetention} (at most 1209600), or lower messageRetentionSeconds`,
      };
    },
  },
  {
    // A copy can sit in the DLQ for its whole retention after its first send (standard; in FIFO after its move, which
    // comes up to the source queue's retention after its first send), so the ledger remembers the key at least that
    // long; the DLQ outlives the source queue (above), so this covers both queues.
    name: "retentionSeconds.deadLetter",
    after: ["retentionSeconds.invocation", "messageRetentionSeconds", "deadLetterRetentionSeconds"],
    check: (p) => {
      const longest = longestCopySeconds(p);
      if (p.retentionSeconds >= longest) return undefined;
      const figures = p.fifo
        ? `messageRetentionSeconds + deadLetterRetentionSeconds (${p.messageRetentionSeconds} + ${p.deadLetterRetentionSeconds} = ${longest}): a FIFO DLQ restarts a moved copy's retention at the move (AWS)`
        : `max(messageRetentionSeconds, deadLetterRetentionSeconds) = deadLetterRetentionSeconds (${p.deadLetterRetentionSeconds})`;
      return {
        prop: "retentionSeconds",
        value: p.retentionSeconds,
        reason: `is below ${figures}; a copy still in a queue could outlive the ledger's memory of its key and be applied twice`,
        fix: `set retentionSeconds >= ${longest}, or lower ${p.fifo ? "messageRetentionSeconds or deadLetterRetentionSeconds" : "deadLetterRetentionSeconds"}`,
      };
    },
  },
];

/**
 * The claim's `expiresAt` is its write time + retentionSeconds, and a claim whose `expiresAt` has passed may be
 * taken over (the claim condition, packages/contract/src/ledger.ts); Powertools treats its record alike. A retention below
 * the lease, the execution or the function's attempts would let a second message take a key whose invocation
 * still runs. The queue rules imply this bound (the ledger outlives the DLQ, which outlives the source queue by a
 * day).
 */
function ledgerOutlivesInvocation(p: ResolvedPipelineProps): PropProblem | undefined {
  const attempts = lambdaAttempts(p);
  const invocation = p.function.timeoutSeconds * attempts;
  const runs: { prop: string; text: string; seconds: number }[] = [
    { prop: "leaseSeconds", text: `leaseSeconds ${p.leaseSeconds}`, seconds: p.leaseSeconds },
    { prop: "executionTimeoutSeconds", text: `executionTimeoutSeconds ${p.executionTimeoutSeconds}`, seconds: p.executionTimeoutSeconds },
    { prop: "function.timeoutSeconds × attempts", text: `function.timeoutSeconds × attempts ${p.function.timeoutSeconds} × ${attempts} = ${invocation}`, seconds: invocation },
  ];
  const longest = runs.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  if (p.retentionSeconds >= longest.seconds) return undefined;
  return {
    prop: "retentionSeconds",
    value: p.retentionSeconds,
    reason: `is below the longest a claim must live, max(${runs.map((r) => r.text).join(", ")}) = ${longest.seconds} (${longest.prop}); the ledger would forget the key while its invocation still runs, and another message could take it over and apply it again`,
    fix: `set retentionSeconds >= ${longest.seconds} (it must also cover the DLQ's retention, 14 days by default)`,
  };
}
