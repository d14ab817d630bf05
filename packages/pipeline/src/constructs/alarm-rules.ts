import { DLQ_EXPIRY_MIN_THRESHOLD_SECONDS, dlqExpiryThresholdSeconds } from "./alarm-thresholds";
import type { PropRule } from "./prop-rules";

/** What the alarms need of the props: a `dlq-expiry` threshold that leaves time to act, a planned ratio that is one. */
export const ALARM_RULES: readonly PropRule[] = [
  {
    name: "deadLetterExpiryWarningSeconds",
    after: ["deadLetterRetentionSeconds.grace"],
    check: (p) => {
      const value = p.deadLetterExpiryWarningSeconds;
      if (!Number.isInteger(value) || value < 3600) {
        return { prop: "deadLetterExpiryWarningSeconds", value, reason: "must be a whole number of seconds, at least 3600 (an hour to act)", fix: "give at least 3600" };
      }
      const threshold = dlqExpiryThresholdSeconds(p);
      if (threshold >= DLQ_EXPIRY_MIN_THRESHOLD_SECONDS) return undefined;
      const arithmetic = p.fifo
        ? `deadLetterRetentionSeconds ${p.deadLetterRetentionSeconds} − ${value} = ${threshold}`
        : `deadLetterRetentionSeconds ${p.deadLetterRetentionSeconds} − messageRetentionSeconds ${p.messageRetentionSeconds} (a moved message keeps its first enqueue time) − ${value} = ${threshold}`;
      return {
        prop: "deadLetterExpiryWarningSeconds",
        value,
        reason: `leaves the dlq-expiry alarm a threshold of ${arithmetic} s, under ${DLQ_EXPIRY_MIN_THRESHOLD_SECONDS} s: it would fire as soon as a message arrives`,
        fix: `lower deadLetterExpiryWarningSeconds to at most ${value + threshold - DLQ_EXPIRY_MIN_THRESHOLD_SECONDS}, or raise deadLetterRetentionSeconds`,
      };
    },
  },
  {
    name: "plannedPartialBatchRatio",
    check: (p) => {
      const value = p.plannedPartialBatchRatio;
      if (typeof value === "number" && value > 0 && value <= 1) return undefined;
      return { prop: "plannedPartialBatchRatio", value, reason: "must be a share above 0 and at most 1", fix: "give the share of pipe executions you expect to retry a record, e.g. 0.2" };
    },
  },
];
