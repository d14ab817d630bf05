/**
 * What FIFO mode cannot honour, refused at synth. The rules that FIFO changes live with their concept: the serial
 * execution budget in timing.ts, the retentions in retention.ts (a FIFO DLQ restarts a copy's retention at the move),
 * FIRE_AND_FORGET in invariants.ts (refused in both modes).
 */
import type { PropProblem } from "./errors";
import type { PropRule } from "./prop-rules";
import type { ResolvedPipelineProps } from "./props";

/** Lambda's SQS event source (the poller Pipes describes the same way): "Batching window is not supported for FIFO queues". */
const FIFO_BATCHING_WINDOW_SOURCE = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-parameters.html";

/**
 * How long one failing message can hold its message group: every receive hides it (and every later message of its
 * group, which FIFO queues do not deliver past it) for the visibility timeout, until its last receive sets it aside.
 */
export function groupHoldSeconds(p: Pick<ResolvedPipelineProps, "visibilityTimeoutSeconds" | "maxReceiveCount">): number {
  return p.visibilityTimeoutSeconds * p.maxReceiveCount;
}

/** "one failing message can hold its group for …", as the synth says it and the docs repeat it. */
export function groupHoldText(p: Pick<ResolvedPipelineProps, "visibilityTimeoutSeconds" | "maxReceiveCount">): string {
  const seconds = groupHoldSeconds(p);
  const hours = seconds >= 3600 ? ` (${+(seconds / 3600).toFixed(1)} h)` : "";
  return (
    `one failing message can hold its message group for visibilityTimeoutSeconds × maxReceiveCount = ${p.visibilityTimeoutSeconds} × ${p.maxReceiveCount} = ${seconds} s${hours} ` +
    "before it is set aside in the DLQ and the group goes on"
  );
}

const fifoOnly = (prop: string, value: unknown): PropProblem => ({
  prop,
  value,
  reason: "applies to FIFO queues only (SQS refuses it on a standard queue)",
  fix: `remove ${prop}, or set fifo: true`,
});

export const FIFO_RULES: readonly PropRule[] = [
  {
    name: "fifo.only",
    check: (p) => [
      ...(!p.fifo && p.contentBasedDeduplication ? [fifoOnly("contentBasedDeduplication", true)] : []),
      ...(!p.fifo && p.highThroughputFifo ? [fifoOnly("highThroughputFifo", true)] : []),
    ],
  },
  {
    // Pipes documents the batching window for standard queues ("continues to poll messages from the Amazon SQS
    // standard queue until…"), Lambda's SQS poller refuses one on FIFO queues: assumed the same for Pipes (a probe).
    name: "fifo.maximumBatchingWindowSeconds",
    after: ["maximumBatchingWindowSeconds"],
    check: (p) =>
      !p.fifo || p.maximumBatchingWindowSeconds === 0
        ? undefined
        : {
            prop: "maximumBatchingWindowSeconds",
            value: p.maximumBatchingWindowSeconds,
            reason: `is not supported on a FIFO queue (${FIFO_BATCHING_WINDOW_SOURCE}: "Batching window is not supported for FIFO queues")`,
            fix: "remove it (FIFO mode's default is 0): a FIFO receive already returns as many messages of a group as it can",
          },
  },
];
