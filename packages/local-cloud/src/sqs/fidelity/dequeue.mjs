// ReceiveMessage's pick in the local SQS, one loop for standard and FIFO queues, so that the redrive policy's decision
// is the shared rule (../rules/redrive.cjs: a receive that would exceed maxReceiveCount moves the message instead) for
// both: fauxqs 1.9.2 decided it in each of its two receive loops. The order is the queue's: a standard queue's visible
// messages front first (fauxqs's), a FIFO queue's by the shared receive order (fifo.mjs). What the move does to the
// message is redrive.mjs's stamp; the receipt handle is re-issued by receipt-handles.mjs.
import { randomUUID } from "node:crypto";
import redriveRules from "../rules/redrive.cjs";
import { SqsQueue } from "./fauxqs-internals.mjs";
import { fifoPicks } from "./fifo.mjs";

const { deadLettersAtReceive } = redriveRules;
const MAX_MESSAGES = 10;

/** Replaces fauxqs's receive (call before the patches that wrap `dequeue`: receipt-handles.mjs, redrive.mjs). */
export function patchDequeue() {
  SqsQueue.prototype.dequeue = function (maxCount, visibilityTimeoutOverride, dlqResolver) {
    this.processTimers();
    const picks = this.isFifo() ? fifoPicks(this) : standardPicks(this);
    return take(this, picks, Math.min(maxCount, MAX_MESSAGES), visibilityTimeoutOverride ?? parseInt(this.attributes.VisibilityTimeout), dlqResolver);
  };
}

/** A standard queue's visible messages, front first (each is taken off before the next is asked for). */
function* standardPicks(queue) {
  while (queue.messages.length > 0) yield { message: queue.messages[0], list: queue.messages };
}

/** The queue's redrive policy as fauxqs reads it: an unreadable one moves nothing. */
function redrivePolicyOf(queue) {
  try {
    const policy = queue.attributes.RedrivePolicy ? JSON.parse(queue.attributes.RedrivePolicy) : undefined;
    return { maxReceiveCount: policy?.maxReceiveCount ?? Infinity, dlqArn: policy?.deadLetterTargetArn };
  } catch {
    return { maxReceiveCount: Infinity, dlqArn: undefined };
  }
}

/** Delivers `picks` in order, up to `count`, each either received (in flight) or moved to the DLQ. */
function take(queue, picks, count, visibilityTimeout, dlqResolver) {
  const { maxReceiveCount, dlqArn } = redrivePolicyOf(queue);
  const result = [];
  for (const { message, list, group } of picks) {
    if (result.length >= count) break;
    list.splice(list.indexOf(message), 1);
    if (group !== undefined && list.length === 0) queue.fifoMessages.delete(group);
    const dlq = dlqArn && dlqResolver && deadLettersAtReceive(message.approximateReceiveCount, maxReceiveCount) ? dlqResolver(dlqArn) : undefined;
    // fauxqs's move counts the receive that moved it; redrive.mjs takes that count back off.
    message.approximateReceiveCount++;
    message.approximateFirstReceiveTimestamp ||= Date.now();
    if (dlq) {
      dlq.enqueue(message);
      continue;
    }
    const receiptHandle = randomUUID();
    queue.inflightMessages.set(receiptHandle, { message, receiptHandle, visibilityDeadline: Date.now() + visibilityTimeout * 1000 });
    if (group !== undefined) queue.fifoLockedGroups.set(group, (queue.fifoLockedGroups.get(group) ?? 0) + 1);
    const received = { MessageId: message.messageId, ReceiptHandle: receiptHandle, MD5OfBody: message.md5OfBody, Body: message.body };
    if (message.md5OfMessageAttributes) received.MD5OfMessageAttributes = message.md5OfMessageAttributes;
    if (Object.keys(message.messageAttributes).length > 0) received.MessageAttributes = message.messageAttributes;
    result.push(received);
  }
  return result;
}
