"use strict";
// FIFO queues as AWS runs them, the one copy (the local SQS's fidelity/fifo.mjs and fidelity/dequeue.mjs, and the
// simulation's tools/sim/src/sqs/fifo.ts apply it to their own stores):
// - a send needs a `MessageGroupId`, and a `MessageDeduplicationId` unless the queue derives one from the body
//   (content-based deduplication: SHA-256 of the body); each holds 1-128 alphanumeric and punctuation characters
//   (recorded: test_message_deduplication_id_invalid; SendMessage's API reference for the group id); in a batch a
//   missing group id fails the whole request (recorded: test_send_batch_missing_message_group_id_for_fifo_queue);
// - `DeduplicationScope` `messageGroup`: a deduplication id counts within its group (recorded:
//   test_fifo_high_throughput_ordering); `queue` (the default): across the queue (recorded:
//   test_sqs_fifo_same_dedup_id_different_message_groups);
// - a receive returns a group's messages in order, as many as it can ("attempts to return as many messages with the
//   same message group ID as possible", SQS Developer Guide, "FIFO queue delivery logic"), then other groups', the
//   group whose next message arrived first going first; it stops in a group at its first message in flight: "The
//   extended message and all messages within the same group that come after it are invisible" (LocalStack's
//   AWS-validated recording test_fifo_group_visibility_extends_with_change_message_visibility). Order is arrival in
//   this queue: a message that comes back from flight takes its place again, one the redrive policy moves arrives at
//   the end of its group in the DLQ.
const { createHash } = require("node:crypto");

/** AWS's characters of a deduplication or group id: alphanumeric and punctuation (ASCII 0x21-0x7E), 1-128 of them. */
const FIFO_ID = /^[\x21-\x7E]{1,128}$/;

/**
 * The first rule a send's ids break, as `{ code, message }`, or undefined. `queue`: undefined for a standard queue
 * (only malformed ids are refused there), else `{ contentBasedDeduplication }`; `inBatch`: a SendMessageBatch entry.
 */
function fifoIdProblem(ids, queue, inBatch) {
  for (const name of ["MessageDeduplicationId", "MessageGroupId"]) {
    const value = ids[name];
    if (value !== undefined && !FIFO_ID.test(String(value))) {
      return { code: "InvalidParameterValue", message: `Value ${value} for parameter ${name} is invalid. Reason: ${name} can only include alphanumeric and punctuation characters. 1 to 128 in length.` };
    }
  }
  if (queue === undefined) return undefined;
  if (ids.MessageGroupId === undefined) return { code: inBatch ? "InvalidParameterValue" : "MissingParameter", message: "The request must contain the parameter MessageGroupId." };
  if (ids.MessageDeduplicationId === undefined && !queue.contentBasedDeduplication) {
    return { code: "InvalidParameterValue", message: "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly" };
  }
  return undefined;
}

/** The deduplication id SQS derives from a body under content-based deduplication. */
const contentDeduplicationId = (body) => createHash("sha256").update(body).digest("hex");

/** The key a deduplication id is remembered under: within its group when the queue's scope is `messageGroup`. */
const deduplicationKey = (scope, group, id) => (scope === "messageGroup" && group !== undefined ? `${group} ${id}` : String(id));

/**
 * The order a receive may take a FIFO queue's messages in. `messages`: every message the queue holds that is not
 * delayed, as `{ group, arrival, inFlight, item }`; returns the items of those it may take, in order (the caller stops
 * at the count the receive asks for).
 */
function fifoReceiveOrder(messages) {
  const groups = new Map();
  for (const m of [...messages].sort((a, b) => a.arrival - b.arrival)) {
    const members = groups.get(m.group);
    if (members) members.push(m);
    else groups.set(m.group, [m]);
  }
  const runs = [];
  for (const members of groups.values()) {
    const stop = members.findIndex((m) => m.inFlight);
    const run = stop === -1 ? members : members.slice(0, stop);
    if (run.length > 0) runs.push(run);
  }
  return runs.sort((a, b) => a[0].arrival - b[0].arrival).flatMap((run) => run.map((m) => m.item));
}

module.exports = { FIFO_ID, fifoIdProblem, contentDeduplicationId, deduplicationKey, fifoReceiveOrder };
