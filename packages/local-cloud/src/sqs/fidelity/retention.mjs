// MessageRetentionPeriod, which fauxqs 1.9.2 never enforces, by the shared rule (../rules/redrive.cjs): a message older
// than its queue's retention period is deleted, wherever it is (visible, in flight, delayed); `retainedFrom` is set by
// redrive.mjs when a FIFO DLQ restarts it. Time is the worker's `Date`, which follows the local cloud's clock:
// advancing the clock expires messages.
import redriveRules from "../rules/redrive.cjs";
import { SqsQueue } from "./fauxqs-internals.mjs";
import { removeMessage } from "./receipt-handles.mjs";

const { retentionEnd, retentionExpired } = redriveRules;

/** When a message's retention began (epoch ms). */
export const retainedFrom = (message) => message.retainedFrom ?? message.sentTimestamp;

export function patchRetention() {
  const processTimers = SqsQueue.prototype.processTimers;
  SqsQueue.prototype.processTimers = function () {
    expire(this);
    return processTimers.call(this);
  };
  const enqueue = SqsQueue.prototype.enqueue;
  SqsQueue.prototype.enqueue = function (message) {
    this.nextExpiry = Math.min(this.nextExpiry ?? Infinity, retentionEnd(retainedFrom(message), retentionSeconds(this)));
    return enqueue.call(this, message);
  };
  const setAttributes = SqsQueue.prototype.setAttributes;
  SqsQueue.prototype.setAttributes = function (attributes) {
    this.nextExpiry = -Infinity;
    return setAttributes.call(this, attributes);
  };
}

const retentionSeconds = (queue) => Number(queue.attributes.MessageRetentionPeriod);

/** Deletes what outlived the retention period. */
function expire(queue) {
  const now = Date.now();
  if (now <= (queue.nextExpiry ?? Infinity)) return;
  const period = retentionSeconds(queue);
  const held = [
    ...queue.messages,
    ...queue.delayedMessages,
    ...[...queue.inflightMessages.values()].map((entry) => entry.message),
    ...[...queue.fifoMessages.values(), ...queue.fifoDelayed.values()].flat(),
  ];
  let next = Infinity;
  for (const message of held) {
    if (retentionExpired(retainedFrom(message), period, now)) removeMessage(queue, message);
    else next = Math.min(next, retentionEnd(retainedFrom(message), period));
  }
  queue.nextExpiry = next;
}
