/**
 * FIFO mode on the deployed pipe (fifo: true stacks only), each fact an assumption of FIFO mode's state machine
 * (statemachines/src/fifo.ts) that AWS's pages leave open for Pipes:
 * - a message group's later record never runs before an earlier one the workflow handed back: it is either in the
 *   same batch and handed back unprocessed, or received only after the retry (SQS keeps a group's later messages
 *   while one is in flight);
 * - when the record handed back comes back (the visibility timeout, or at once);
 * - another group is applied while the first waits;
 * - the group is applied in send order;
 * - a quarantine's copy is accepted by the FIFO DLQ with the record's group and the deduplication id the state
 *   machine computes ($hash of the execution and message ids: 64 hex digits).
 */
import { isFifoQueue } from "@effectively-once/contract";
import { acknowledgedDelivery, endedDeliveries, nthDelivery, waitUntil, type Delivery } from "../observe";
import { FAIL_ONCE, PROBE_FIELD } from "../probe-field";
import type { Fact, Probe } from "../types";
import { returnVerdict } from "./failed-return";
import { peekDlq, probeBody, send } from "./messages";

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Where a delivery sits in time: its execution's start, then its place in the batch. */
const when = (d: Delivery) => [d.startedAt, d.records.indexOf(d.record)] as const;
const before = (a: Delivery, b: Delivery) => when(a)[0] < when(b)[0] || (when(a)[0] === when(b)[0] && when(a)[1] < when(b)[1]);

/**
 * How the group's second record was first received, against the first record's failed and retried deliveries: in
 * the failed record's batch or only from the retry on (which of the two depends on when the pipe polled, so only
 * whether order held is compared).
 */
function heldVerdict(failed: Delivery, retry: Delivery, later: Delivery): { held: boolean; how: string } {
  if (later.executionArn === failed.executionArn) {
    return later.end?.handedBack ? { held: true, how: "in the failed record's batch, handed back unprocessed" } : { held: false, how: "in the failed record's batch, applied" };
  }
  return later.startedAt < retry.startedAt ? { held: false, how: "received before the retry" } : { held: true, how: "received only with or after the retry" };
}

export const fifoGroupProbe: Probe = {
  id: "fifo-group-order",
  title: "A FIFO message group across a retry, another group meanwhile, a quarantine's copy in the FIFO DLQ",
  protects: "FIFO mode's ordering row: a group's records in send order across a retry, other groups not held, quarantine copies never dropped by SQS's deduplication",
  needsStack: true,
  appliesTo: (stack) => isFifoQueue(stack.names.queue),
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 5, resource: stack.names.queue, why: "three messages of one group (the first fails once), one of another group, one that is not JSON in a third" },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 60, resource: stack.names.workflowLogGroup, why: `each message's executions (polled about 24 times over the ${stack.visibilityTimeoutSeconds} s visibility timeout)` },
    { service: "SQS", action: "ReceiveMessage", count: 5, resource: stack.names.dlq, why: "peek (visibility 0): the quarantine's copy, its group and deduplication id" },
  ],
  async run(context) {
    const visibility = context.stack.visibilityTimeoutSeconds;
    const group = `${context.runId}-g`;
    const body = (i: number, extra: Record<string, unknown> = {}) => JSON.stringify(probeBody(context, 10 + i, extra));
    const ids = [
      await send(context, body(0, { [PROBE_FIELD]: FAIL_ONCE }), undefined, "queue", group),
      await send(context, body(1), undefined, "queue", group),
      await send(context, body(2), undefined, "queue", group),
    ];
    const other = await send(context, body(3), undefined, "queue", `${context.runId}-h`);
    const poison = `not json ${context.runId}`;
    await send(context, poison, undefined, "queue", `${context.runId}-q`);

    const poll = { intervalMs: Math.max(2_000, (visibility * 1000) / 24) };
    const failed = await nthDelivery(context, ids[0], 1, 300_000);
    const retry = await nthDelivery(context, ids[0], 2, (visibility + 300) * 1000, poll);
    const applied = await Promise.all(ids.map((id) => acknowledgedDelivery(context, id, (visibility + 300) * 1000, poll)));
    const laterFirst = (await endedDeliveries(context, ids[1]))[0];
    const otherApplied = await acknowledgedDelivery(context, other, 300_000);
    const copy = await waitUntil(context, "the quarantine's copy in the DLQ", 300_000, async () => (await peekDlq(context, (b) => b === poison))[0]);
    const received = Number(failed.record.attributes?.ApproximateFirstReceiveTimestamp ?? failed.startedAt);
    const held = heldVerdict(failed, retry, laterFirst);
    const inOrder = applied.every((d, i) => i === 0 || before(applied[i - 1], d));
    const facts: Fact[] = [
      ["first delivery of the failing record", failed.end?.handedBack ? "handed back" : "acknowledged"],
      ["the group's next record before the failed one's retry", held.held ? "never applied" : "applied (order broken)"],
      ["the group's next record, first received", held.how, false],
      ["the failed record came back", returnVerdict((retry.startedAt - received) / 1000, visibility)],
      ["the group applied in send order", inOrder ? "yes" : "no"],
      ["another group while the first waited", before(otherApplied, retry) ? "applied meanwhile" : "applied only after the retry"],
      ["receive count of the failed record when applied", String(applied[0].record.attributes?.ApproximateReceiveCount)],
      ["quarantine copy's group", copy.Attributes?.MessageGroupId === `${context.runId}-q` ? "the record's" : String(copy.Attributes?.MessageGroupId)],
      ["quarantine copy's deduplication id", SHA256_HEX.test(copy.Attributes?.MessageDeduplicationId ?? "") ? "64 hex digits, as sent" : String(copy.Attributes?.MessageDeduplicationId)],
      [`seconds until the failed record came back (visibility timeout ${visibility} s)`, ((retry.startedAt - received) / 1000).toFixed(1), false],
    ];
    return { facts };
  },
};
