"use strict";
// Receipt handles' rules, the one copy, applied by the local SQS (fidelity/receipt-handles.mjs) and the simulation's
// SQS (tools/sim/src/sqs/service.ts). Each store issues and indexes its own handles; these rules decide what a call
// with one does:
// - a handle the queue never issued: ReceiptHandleIsInvalid (DeleteMessage and ChangeMessageVisibility);
// - DeleteMessage deletes with the message's most recent handle, also after its visibility ran out (recorded on
//   AWS); an earlier receive's handle succeeds without deleting (AWS DeleteMessage API reference);
// - ChangeMessageVisibility (0-43,200 s) with any of the message's handles changes its current receive (LocalStack's
//   recording, no validation date), succeeds without effect when it is not in flight (recorded), and is
//   InvalidParameterValue once the message is gone (recorded).

const MAX_VISIBILITY = 43_200;

const missing = (parameter) => ({ code: "MissingParameter", message: `The request must contain the parameter ${parameter}.` });
const invalidHandle = (handle) => ({ code: "ReceiptHandleIsInvalid", message: `The input receipt handle "${handle}" is not a valid receipt handle.` });

/**
 * DeleteMessage: `{ problem }` (what SQS answers), or `{ deletes }`. `issued`: this queue issued the handle;
 * `latestHandle`: the handle of the message's most recent receive (undefined: the message left the queue).
 */
function deleteDecision({ handle, issued, latestHandle }) {
  if (typeof handle !== "string" || handle === "") return { problem: missing("ReceiptHandle") };
  if (!issued) return { problem: invalidHandle(handle) };
  return { deletes: latestHandle !== undefined && handle === latestHandle };
}

/**
 * ChangeMessageVisibility: `{ problem }`, or `{ changes }` (whether the message's current receive gets the new
 * timeout). `present`: the handle's message is still in the queue; `inFlight`: it is received and not yet visible.
 */
function visibilityDecision({ handle, seconds, issued, present, inFlight }) {
  if (seconds === undefined || seconds === null) return { problem: missing("VisibilityTimeout") };
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_VISIBILITY) {
    return { problem: { code: "InvalidParameterValue", message: `Value ${seconds} for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and ${MAX_VISIBILITY}.` } };
  }
  if (typeof handle !== "string" || handle === "") return { problem: missing("ReceiptHandle") };
  if (!issued) return { problem: invalidHandle(handle) };
  if (!present) {
    return { problem: { code: "InvalidParameterValue", message: `Value ${handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.` } };
  }
  return { changes: inFlight };
}

module.exports = { MAX_VISIBILITY, deleteDecision, visibilityDecision };
