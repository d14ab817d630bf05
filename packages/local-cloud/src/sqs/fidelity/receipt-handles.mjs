// Receipt handles as AWS issues them (fauxqs 1.9.2 keeps one random UUID per in-flight receive and forgets it once the
// visibility runs out). Every handle names its queue and message; a queue keeps an index from each handle it issued to
// the message, until the message leaves the queue (deleted, expired, moved, purged). What DeleteMessage and
// ChangeMessageVisibility do with a handle is SQS's rule, one copy for both SQS implementations (../rules/receipt-handles.cjs).
import { randomUUID } from "node:crypto";
import { sqsError } from "./aws-errors.mjs";
import { QueueDoesNotExistError, SqsQueue } from "./fauxqs-internals.mjs";
import receiptHandleRules from "../rules/receipt-handles.cjs";

const { deleteDecision, visibilityDecision } = receiptHandleRules;

/** The stored message behind an entry of a ReceiveMessage answer (not serialized). */
export const MESSAGE = Symbol("message");

export function patchReceiptHandles() {
  const dequeue = SqsQueue.prototype.dequeue;
  SqsQueue.prototype.dequeue = function (...args) {
    const received = dequeue.apply(this, args);
    for (const answer of received) {
      const entry = this.inflightMessages.get(answer.ReceiptHandle);
      const handle = Buffer.from(`${randomUUID()} ${this.arn} ${entry.message.messageId} ${Date.now()}`).toString("base64");
      this.inflightMessages.delete(answer.ReceiptHandle);
      entry.receiptHandle = handle;
      this.inflightMessages.set(handle, entry);
      answer.ReceiptHandle = handle;
      remember(this, handle, entry.message);
      Object.defineProperty(answer, MESSAGE, { value: entry.message });
    }
    return received;
  };
  const purge = SqsQueue.prototype.purge;
  SqsQueue.prototype.purge = function () {
    this.handleIndex?.clear();
    return purge.call(this);
  };
}

function remember(queue, handle, message) {
  queue.handleIndex ??= new Map();
  queue.handleIndex.set(handle, message);
  (message.handles ??= []).push(handle);
  message.latestHandle = handle;
}

/** Forgets a message's handles in a queue it is leaving (its handles there become handles of no message). */
export function forgetHandles(queue, message) {
  for (const handle of message.handles ?? []) queue.handleIndex?.delete(handle);
  message.handles = [];
  message.latestHandle = undefined;
}

/** Takes a message out of a queue wherever it is (in flight, visible or delayed), with its handles. */
export function removeMessage(queue, message) {
  if (message.latestHandle && queue.inflightMessages.get(message.latestHandle)?.message === message) {
    queue.deleteMessage(message.latestHandle);
  } else {
    const drop = (list) => {
      const at = list.indexOf(message);
      if (at >= 0) list.splice(at, 1);
    };
    drop(queue.messages);
    drop(queue.delayedMessages);
    for (const group of [...queue.fifoMessages.values(), ...queue.fifoDelayed.values()]) drop(group);
  }
  forgetHandles(queue, message);
}

function queueOf(store, body) {
  const queue = store.getQueue(body.QueueUrl);
  if (!queue) throw new QueueDoesNotExistError();
  return queue;
}

/** Whether this queue issued the handle (it names the queue), and the message it names (undefined once it left). */
function lookUp(queue, handle) {
  const fields = typeof handle === "string" ? Buffer.from(handle, "base64").toString("utf8").split(" ") : [];
  const issued = fields.length === 4 && fields[1] === queue.arn;
  return { issued, message: issued ? queue.handleIndex?.get(handle) : undefined };
}

const fail = (problem) => sqsError(problem.code, problem.message);

function deleteOne(queue, handle) {
  const { issued, message } = lookUp(queue, handle);
  const decision = deleteDecision({ handle, issued, latestHandle: message?.latestHandle });
  if (decision.problem) throw fail(decision.problem);
  if (decision.deletes) removeMessage(queue, message);
}

function changeOne(queue, handle, seconds) {
  const { issued, message } = lookUp(queue, handle);
  queue.processTimers();
  const inFlight = message !== undefined && queue.inflightMessages.get(message.latestHandle)?.message === message;
  const decision = visibilityDecision({ handle, seconds, issued, present: message !== undefined, inFlight });
  if (decision.problem) throw fail(decision.problem);
  if (decision.changes) queue.changeVisibility(message.latestHandle, seconds);
}

/** A batch's entries, one at a time: each failure is its own `Failed` entry (AWS omits an empty list). */
function batch(entries, one) {
  const Successful = [];
  const Failed = [];
  for (const entry of entries ?? []) {
    try {
      one(entry);
      Successful.push({ Id: entry.Id });
    } catch (error) {
      if (error?.queryErrorHeader === undefined) throw error;
      Failed.push({ Id: entry.Id, SenderFault: true, Code: error.queryErrorHeader.split(";")[0], Message: error.message });
    }
  }
  return Failed.length > 0 ? { Successful, Failed } : { Successful };
}

/** The actions this module answers instead of fauxqs. */
export const receiptHandleActions = new Map([
  ["DeleteMessage", (body, store) => (deleteOne(queueOf(store, body), body.ReceiptHandle), {})],
  ["ChangeMessageVisibility", (body, store) => (changeOne(queueOf(store, body), body.ReceiptHandle, body.VisibilityTimeout), {})],
  ["DeleteMessageBatch", (body, store) => {
    const queue = queueOf(store, body);
    return batch(body.Entries, (entry) => deleteOne(queue, entry.ReceiptHandle));
  }],
  ["ChangeMessageVisibilityBatch", (body, store) => {
    const queue = queueOf(store, body);
    return batch(body.Entries, (entry) => changeOne(queue, entry.ReceiptHandle, entry.VisibilityTimeout ?? 0));
  }],
]);
