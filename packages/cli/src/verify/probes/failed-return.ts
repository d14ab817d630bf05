/**
 * When a record the workflow hands back (a batchItemFailure) is delivered again: after the queue's visibility
 * timeout, or at once. The no-op function fails the message's first receive; the probe times the second delivery
 * from the first receive (the record's ApproximateFirstReceiveTimestamp; the visibility timeout runs from there).
 */
import { nthDelivery } from "../observe";
import type { Probe } from "../types";
import { FAIL_ONCE, PROBE_FIELD } from "../probe-field";
import { probeBody, send } from "./messages";

/** Seconds of slack on either side: log times and the pipe's polling are not exact. */
const SLACK_SECONDS = 5;

export function returnVerdict(gapSeconds: number, visibilitySeconds: number): string {
  if (gapSeconds < Math.min(SLACK_SECONDS, visibilitySeconds / 2)) return "at once";
  if (gapSeconds >= visibilitySeconds - SLACK_SECONDS) return "after the visibility timeout";
  return `after ${Math.round(gapSeconds)} s, before the visibility timeout`;
}

export const failedReturnProbe: Probe = {
  id: "failed-record-return",
  title: "When a failed record comes back",
  protects: "transient failures release the claim and retry after the visibility timeout; the lease and the retry budget are sized on it",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 1, resource: stack.names.queue, why: `one message the no-op function fails once (it comes back after up to ${stack.visibilityTimeoutSeconds} s)` },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 40, resource: stack.names.workflowLogGroup, why: "its two executions (polled about 24 times over the visibility timeout)" },
  ],
  async run(context) {
    const visibility = context.stack.visibilityTimeoutSeconds;
    const id = await send(context, JSON.stringify(probeBody(context, 3, { [PROBE_FIELD]: FAIL_ONCE })));
    const first = await nthDelivery(context, id, 1, 300_000);
    // Polled about 24 times over the visibility timeout: the gap is read from the log times, not from the polls.
    const second = await nthDelivery(context, id, 2, (visibility + 300) * 1000, { intervalMs: Math.max(2_000, (visibility * 1000) / 24) });
    const received = Number(first.record.attributes?.ApproximateFirstReceiveTimestamp ?? first.startedAt);
    const gap = (second.startedAt - received) / 1000;
    return {
      facts: [
        ["first delivery", first.end?.handedBack ? "handed back" : "acknowledged"],
        ["came back", returnVerdict(gap, visibility)],
        ["receive count on return", String(second.record.attributes?.ApproximateReceiveCount)],
        ["second delivery", second.end?.handedBack ? "handed back" : "acknowledged"],
        [`seconds until it came back (visibility timeout ${visibility} s)`, gap.toFixed(1), false],
      ],
    };
  },
};
