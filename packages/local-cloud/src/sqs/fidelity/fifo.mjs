// FIFO queues in the local SQS: the rules (../rules/fifo.cjs: the ids, the deduplication scope, the receive order)
// applied to fauxqs's store (the receive itself: dequeue.mjs). fauxqs 1.9.2 returned at most one message per group per receive, locked a whole group
// while any of its messages was in flight, put messages coming back from flight in reverse order, and kept
// deduplication ids queue-wide whatever DeduplicationScope said. Time is the worker's `Date`, which follows the local
// cloud's clock: the 5-minute window passes with it.
import { sqsError } from "./aws-errors.mjs";
import fifoRules from "../rules/fifo.cjs";
import { SqsQueue } from "./fauxqs-internals.mjs";

const { deduplicationKey, fifoIdProblem, fifoReceiveOrder } = fifoRules;

const arrivalOf = (message) => message.fifoArrival ?? 0;

export function patchFifo() {
  const enqueue = SqsQueue.prototype.enqueue;
  SqsQueue.prototype.enqueue = function (message) {
    // Arrival in this queue orders its group (a moved message arrives anew in the DLQ).
    if (this.isFifo()) message.fifoArrival = this.fifoArrivals = (this.fifoArrivals ?? 0) + 1;
    return enqueue.call(this, message);
  };
  SqsQueue.prototype.hasAvailableFifoMessages = function () {
    return receiveOrder(this).length > 0;
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
      return original.call(this, deduplicationKey(this.attributes.DeduplicationScope, this.sendingGroup, id), ...rest);
    };
  }
}

const groupOf = (message) => message.messageGroupId ?? "__default";

/** The queue's visible messages in the order a receive may take them (the shared rule), each with its group. */
function receiveOrder(queue) {
  const candidates = [];
  for (const [group, messages] of queue.fifoMessages) for (const message of messages) candidates.push({ group, arrival: arrivalOf(message), inFlight: false, item: { group, message } });
  for (const { message } of queue.inflightMessages.values()) candidates.push({ group: groupOf(message), arrival: arrivalOf(message), inFlight: true, item: undefined });
  return fifoReceiveOrder(candidates);
}

/** What a FIFO receive may take, in order (the shared rule): each message with the group list it sits in (dequeue.mjs). */
export function fifoPicks(queue) {
  return receiveOrder(queue).map(({ group, message }) => ({ message, group, list: queue.fifoMessages.get(group) }));
}

/**
 * The checks AWS makes of a FIFO send's ids (the shared rule). In a batch every entry is checked first and a missing
 * group id fails the whole request; a single send without one is fauxqs's own MissingParameter.
 */
function checkIds(entry, queue, inBatch) {
  const fifo = queue?.isFifo() ? { contentBasedDeduplication: queue.attributes.ContentBasedDeduplication === "true" } : undefined;
  const problem = fifoIdProblem(entry, fifo, inBatch);
  if (problem) throw sqsError(problem.code, problem.message);
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
