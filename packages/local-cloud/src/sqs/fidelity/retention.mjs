// MessageRetentionPeriod, which fauxqs 1.9.2 never enforces: a message older than its queue's retention period is
// deleted, wherever it is (visible, in flight, delayed), counted from its original enqueue time. A standard queue's
// dead-letter queue keeps that time; a FIFO queue's resets it (SQS Developer Guide, "Setting-up dead-letter queue
// retention"; `retainedFrom`, set by redrive.mjs); a moved message is a new message (move-tasks.mjs). Time is the
// worker's `Date`, which follows the local cloud's clock: advancing the clock expires messages.
import { SqsQueue } from "./fauxqs-internals.mjs";
import { removeMessage } from "./receipt-handles.mjs";

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
    this.nextExpiry = Math.min(this.nextExpiry ?? Infinity, retainedFrom(message) + retentionMs(this));
    return enqueue.call(this, message);
  };
  const setAttributes = SqsQueue.prototype.setAttributes;
  SqsQueue.prototype.setAttributes = function (attributes) {
    this.nextExpiry = -Infinity;
    return setAttributes.call(this, attributes);
  };
}

const retentionMs = (queue) => Number(queue.attributes.MessageRetentionPeriod) * 1000;

/** Deletes what outlived the retention period (a message expires once `now - retainedFrom > period`). */
function expire(queue) {
  const now = Date.now();
  if (now <= (queue.nextExpiry ?? Infinity)) return;
  const period = retentionMs(queue);
  const held = [
    ...queue.messages,
    ...queue.delayedMessages,
    ...[...queue.inflightMessages.values()].map((entry) => entry.message),
    ...[...queue.fifoMessages.values(), ...queue.fifoDelayed.values()].flat(),
  ];
  let next = Infinity;
  for (const message of held) {
    const end = retainedFrom(message) + period;
    if (now > end) removeMessage(queue, message);
    else next = Math.min(next, end);
  }
  queue.nextExpiry = next;
}
