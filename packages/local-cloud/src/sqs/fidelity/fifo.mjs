// FIFO queues as AWS delivers them (fauxqs 1.9.2 returned at most one message per group per receive, locked a whole
// group while any of its messages was in flight, put messages coming back from flight in reverse order, and kept
// deduplication ids queue-wide whatever DeduplicationScope said):
// - a receive returns a group's messages in order, as many as it can ("attempts to return as many messages with the
//   same message group ID as possible", SQS Developer Guide, "FIFO queue delivery logic"), then other groups'; it
//   stops in a group at its first message in flight: "The extended message and all messages within the same group
//   that come after it are invisible" (LocalStack's AWS-validated recording
//   test_fifo_group_visibility_extends_with_change_message_visibility), while earlier visible ones are returned;
// - a message that comes back (its visibility ran out, or was set to 0) takes its place in its group again, by order
//   of arrival in this queue (a message the redrive policy moves arrives at the end of its group in the DLQ);
// - `DeduplicationScope` `messageGroup`: a deduplication id counts within its group (recorded:
//   test_fifo_high_throughput_ordering, test_sqs_fifo_message_group_scope_no_throughput_setting); `queue` (the
//   default): across the queue (recorded: test_sqs_fifo_same_dedup_id_different_message_groups);
// - `MessageDeduplicationId` and `MessageGroupId` hold 1-128 alphanumeric and punctuation characters (recorded:
//   test_message_deduplication_id_invalid; SendMessage's API reference for the group id).
// Time is the worker's `Date`, which follows the local cloud's clock: the 5-minute window passes with it.
import { randomUUID } from "node:crypto";
import { sqsError } from "./aws-errors.mjs";
import { SqsQueue } from "./fauxqs-internals.mjs";

/** AWS's characters of a deduplication or group id: alphanumeric and punctuation (ASCII 0x21-0x7E), 1-128 of them. */
const FIFO_ID = /^[\x21-\x7E]{1,128}$/;

const arrivalOf = (message) => message.fifoArrival ?? 0;

export function patchFifo() {
  const enqueue = SqsQueue.prototype.enqueue;
  SqsQueue.prototype.enqueue = function (message) {
    // Arrival in this queue orders its group (a moved message arrives anew in the DLQ).
    if (this.isFifo()) message.fifoArrival = this.fifoArrivals = (this.fifoArrivals ?? 0) + 1;
    return enqueue.call(this, message);
  };
  SqsQueue.prototype.dequeueFifo = dequeueFifo;
  SqsQueue.prototype.hasAvailableFifoMessages = function () {
    const limits = inFlightFrom(this);
    for (const [group, messages] of this.fifoMessages) if (messages.some((m) => arrivalOf(m) < (limits.get(group) ?? Infinity))) return true;
    return false;
  };
  for (const name of ["processTimers", "changeVisibility"]) {
    const original = SqsQueue.prototype[name];
    SqsQueue.prototype[name] = function (...args) {
      const result = original.apply(this, args);
      if (this.isFifo()) for (const messages of this.fifoMessages.values()) messages.sort((a, b) => arrivalOf(a) - arrivalOf(b));
      return result;
    };
  }
  // Deduplication ids of a messageGroup-scoped queue are kept per group: the key fauxqs stores is `<group> <id>`.
  for (const name of ["checkDeduplication", "recordDeduplication"]) {
    const original = SqsQueue.prototype[name];
    SqsQueue.prototype[name] = function (id, ...rest) {
      const scoped = this.attributes.DeduplicationScope === "messageGroup" && this.sendingGroup !== undefined ? `${this.sendingGroup} ${id}` : id;
      return original.call(this, scoped, ...rest);
    };
  }
}

/** Per group, the arrival of its earliest message in flight: nothing of the group at or after it can be received. */
function inFlightFrom(queue) {
  const limits = new Map();
  for (const { message } of queue.inflightMessages.values()) {
    const group = message.messageGroupId ?? "__default";
    limits.set(group, Math.min(limits.get(group) ?? Infinity, arrivalOf(message)));
  }
  return limits;
}

/** fauxqs's FIFO receive, with AWS's rules (see the file comment); the redrive policy's move is fauxqs's own. */
function dequeueFifo(maxCount, visibilityTimeoutOverride, dlqResolver) {
  this.processTimers();
  const visibilityTimeout = visibilityTimeoutOverride ?? parseInt(this.attributes.VisibilityTimeout);
  let maxReceiveCount = Infinity;
  let dlqArn;
  try {
    const policy = this.attributes.RedrivePolicy ? JSON.parse(this.attributes.RedrivePolicy) : undefined;
    maxReceiveCount = policy?.maxReceiveCount ?? Infinity;
    dlqArn = policy?.deadLetterTargetArn;
  } catch {
    // An unreadable policy moves nothing (fauxqs's own reading).
  }
  const count = Math.min(maxCount, 10);
  const limits = inFlightFrom(this);
  // The group whose next receivable message arrived first goes first.
  const order = [...this.fifoMessages.entries()]
    .map(([group, messages]) => ({ group, messages, head: messages.find((m) => arrivalOf(m) < (limits.get(group) ?? Infinity)) }))
    .filter((g) => g.head !== undefined)
    .sort((a, b) => arrivalOf(a.head) - arrivalOf(b.head));
  const result = [];
  for (const { group, messages } of order) {
    const limit = limits.get(group) ?? Infinity;
    while (result.length < count && messages.length > 0 && arrivalOf(messages[0]) < limit) {
      const message = messages.shift();
      message.approximateReceiveCount++;
      message.approximateFirstReceiveTimestamp ||= Date.now();
      if (dlqArn && dlqResolver && message.approximateReceiveCount > maxReceiveCount) {
        const dlq = dlqResolver(dlqArn);
        if (dlq) {
          dlq.enqueue(message);
          continue;
        }
      }
      const receiptHandle = randomUUID();
      this.inflightMessages.set(receiptHandle, { message, receiptHandle, visibilityDeadline: Date.now() + visibilityTimeout * 1000 });
      this.fifoLockedGroups.set(group, (this.fifoLockedGroups.get(group) ?? 0) + 1);
      const received = { MessageId: message.messageId, ReceiptHandle: receiptHandle, MD5OfBody: message.md5OfBody, Body: message.body };
      if (message.md5OfMessageAttributes) received.MD5OfMessageAttributes = message.md5OfMessageAttributes;
      if (Object.keys(message.messageAttributes).length > 0) received.MessageAttributes = message.messageAttributes;
      result.push(received);
    }
    if (messages.length === 0) this.fifoMessages.delete(group);
    if (result.length >= count) break;
  }
  return result;
}

/**
 * The checks AWS makes of a FIFO send's ids. In a batch every entry is checked first and a missing id fails the whole
 * request (recorded: test_send_batch_missing_message_group_id_for_fifo_queue, ..._deduplication_id_...).
 */
function checkIds(entry, queue, inBatch) {
  for (const name of ["MessageDeduplicationId", "MessageGroupId"]) {
    const value = entry[name];
    if (value !== undefined && !FIFO_ID.test(String(value))) {
      throw sqsError("InvalidParameterValue", `Value ${value} for parameter ${name} is invalid. Reason: ${name} can only include alphanumeric and punctuation characters. 1 to 128 in length.`);
    }
  }
  if (!queue?.isFifo()) return;
  if (inBatch && entry.MessageGroupId === undefined) throw sqsError("InvalidParameterValue", "The request must contain the parameter MessageGroupId.");
  if (entry.MessageDeduplicationId === undefined && queue.attributes.ContentBasedDeduplication !== "true" && entry.MessageGroupId !== undefined) {
    throw sqsError("InvalidParameterValue", "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
  }
}

/** Runs fauxqs's send with the group set for the deduplication check (fauxqs's send actions are synchronous). */
function sendingIn(queue, group, run) {
  if (!queue) return run();
  queue.sendingGroup = group;
  try {
    return run();
  } finally {
    queue.sendingGroup = undefined;
  }
}

/**
 * CreateQueue and SetQueueAttributes: SQS reads its boolean attributes in any case (recorded: "True"); fauxqs compares
 * with "true".
 */
export function normaliseFifoAttributes(body) {
  for (const name of ["FifoQueue", "ContentBasedDeduplication"]) {
    const value = body.Attributes?.[name];
    if (typeof value === "string" && /^(true|false)$/i.test(value)) body.Attributes[name] = value.toLowerCase();
  }
}

/** SendMessage and SendMessageBatch on a FIFO queue: AWS's id checks, then fauxqs's send (wrapped by send.mjs). */
export function fifoSend(action, body, store, request, next) {
  const queue = store.getQueue(body.QueueUrl);
  if (action === "SendMessage") {
    checkIds(body, queue, false);
    return sendingIn(queue, body.MessageGroupId, () => next(body, store, request));
  }
  if (!queue?.isFifo() || !Array.isArray(body.Entries)) return next(body, store, request);
  for (const entry of body.Entries) checkIds(entry, queue, true);
  // One entry at a time, in order, so each is deduplicated within its own group.
  const Successful = [];
  const Failed = [];
  for (const entry of body.Entries) {
    const answer = sendingIn(queue, entry.MessageGroupId, () => next({ ...body, Entries: [entry] }, store, request));
    Successful.push(...(answer.Successful ?? []));
    Failed.push(...(answer.Failed ?? []));
  }
  return Failed.length > 0 ? { Successful, Failed } : { Successful };
}
