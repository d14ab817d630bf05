// AWS's request rules where fauxqs 1.9.2 words them differently or lacks them, checked before any action runs
// (messages as recorded on AWS), and PurgeQueue's once-a-minute rule.
import { sqsError } from "./aws-errors.mjs";
import { QueueDoesNotExistError, VALID_BATCH_ENTRY_ID, calculateMessageSize } from "./fauxqs-internals.mjs";

const MAX_BATCH_ENTRIES = 10;
const MAX_BATCH_BYTES = 1_048_576;
const PURGE_INTERVAL_MS = 60_000;
const BATCH_ACTIONS = new Set(["SendMessageBatch", "DeleteMessageBatch", "ChangeMessageVisibilityBatch"]);

/** Throws the error AWS answers for a request that breaks one of these rules. */
export function checkRequest(action, body) {
  if (action === "ReceiveMessage" && body.MaxNumberOfMessages !== undefined) {
    const n = body.MaxNumberOfMessages;
    if (!Number.isInteger(n) || n < 1 || n > 10) {
      throw sqsError("InvalidParameterValue", `Value ${n} for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.`);
    }
  }
  if (!BATCH_ACTIONS.has(action)) return;
  const entries = Array.isArray(body.Entries) ? body.Entries : [];
  if (entries.length === 0) throw sqsError("EmptyBatchRequest", `There should be at least one ${action}RequestEntry in the request.`);
  if (entries.length > MAX_BATCH_ENTRIES) {
    throw sqsError("TooManyEntriesInBatchRequest", `Maximum number of entries per request are ${MAX_BATCH_ENTRIES}. You have sent ${entries.length}.`);
  }
  const ids = new Set();
  for (const entry of entries) {
    if (typeof entry?.Id !== "string" || !VALID_BATCH_ENTRY_ID.test(entry.Id) || entry.Id.length > 80) {
      throw sqsError("InvalidBatchEntryId", "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.");
    }
    if (ids.has(entry.Id)) throw sqsError("BatchEntryIdsNotDistinct", `Id ${entry.Id} repeated.`);
    ids.add(entry.Id);
  }
  if (action === "SendMessageBatch") {
    const bytes = entries.reduce((sum, entry) => sum + calculateMessageSize(String(entry.MessageBody ?? ""), entry.MessageAttributes ?? {}), 0);
    if (bytes > MAX_BATCH_BYTES) throw sqsError("BatchRequestTooLong", `Batch requests cannot be longer than ${MAX_BATCH_BYTES} bytes. You have sent ${bytes} bytes.`);
  }
}

export const purgeActions = new Map([
  [
    "PurgeQueue",
    (body, store, request, fauxqs) => {
      const queue = store.getQueue(body.QueueUrl);
      if (!queue) throw new QueueDoesNotExistError();
      const now = Date.now();
      if (queue.purgedAt !== undefined && now - queue.purgedAt < PURGE_INTERVAL_MS) {
        throw sqsError("PurgeQueueInProgress", `Only one PurgeQueue operation on ${queue.name} is allowed every 60 seconds.`, 403);
      }
      queue.purgedAt = now;
      return fauxqs(body, store, request);
    },
  ],
]);
