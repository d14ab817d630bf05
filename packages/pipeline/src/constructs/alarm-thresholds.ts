/**
 * The alarms' thresholds, derived from the stack's own settings: the one place they are computed, read by the alarms
 * (alarm-specs.ts), their rules (alarm-rules.ts) and the docs' tests.
 */
import { SQS_IN_FLIGHT_MAX } from "./aws-limits";
import type { ResolvedPipelineProps } from "./props";

/** The share of a limit at which an alarm calls it near. */
const NEAR_LIMIT = 0.8;

/** Seconds an hour: the smallest `dlq-expiry` threshold the synth accepts (alarm-rules.ts). */
export const DLQ_EXPIRY_MIN_THRESHOLD_SECONDS = 3600;

type Settings = Pick<ResolvedPipelineProps, "fifo" | "messageRetentionSeconds" | "deadLetterRetentionSeconds" | "deadLetterExpiryWarningSeconds">;

/**
 * The DLQ age (seconds, as `ApproximateAgeOfOldestMessage` counts it on the DLQ) at which its oldest message is at
 * most `deadLetterExpiryWarningSeconds` from deletion.
 *
 * SQS deletes a DLQ message `deadLetterRetentionSeconds` after its enqueue time. A standard queue's redrive keeps the
 * message's first enqueue time, while the DLQ's age metric counts from the move; a message can have waited up to the
 * source queue's retention before it moved. So, for standard queues:
 *
 *   deletion ≤ move + (deadLetterRetention − timeInSource) and timeInSource ≤ messageRetention
 *   → worst case: the alarm must fire at age deadLetterRetention − messageRetention − warning.
 *
 * A FIFO redrive resets the enqueue time, and the workflow's own quarantine (SendMessage) is a new message: both
 * count from the move, so FIFO only subtracts the warning. With the defaults: 14 d − 4 d − 1 d = 9 d.
 */
export function dlqExpiryThresholdSeconds(p: Settings): number {
  const spentInSource = p.fifo ? 0 : p.messageRetentionSeconds;
  return p.deadLetterRetentionSeconds - spentInSource - p.deadLetterExpiryWarningSeconds;
}

/** The latest the oldest DLQ message can still be there once `dlq-expiry` fires: its text for the alarm's description. */
export function dlqExpiryDeadlineText(p: Settings): string {
  const days = (s: number) => `${+(s / 86400).toFixed(2)} d`;
  const threshold = dlqExpiryThresholdSeconds(p);
  const source = p.fifo ? "" : `; a message the redrive moved may have waited up to ${days(p.messageRetentionSeconds)} in the source queue first, and keeps that time`;
  return `fires when the oldest DLQ message has waited ${days(threshold)} in the DLQ; SQS deletes it ${days(p.deadLetterRetentionSeconds)} after its first enqueue${source}: it is gone at the latest ${days(p.deadLetterExpiryWarningSeconds)} after this alarm fires`;
}

/** Milliseconds of `Duration` (Maximum) that count as near the function's timeout. */
export function durationThresholdMs(p: Pick<ResolvedPipelineProps, "function">): number {
  return Math.round(p.function.timeoutSeconds * 1000 * NEAR_LIMIT);
}

/** Messages in flight on the source queue that count as near SQS's limit. */
export const IN_FLIGHT_THRESHOLD = Math.round(SQS_IN_FLIGHT_MAX * NEAR_LIMIT);
