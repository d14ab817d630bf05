// SQS errors as AWS spells them, one table for both wire protocols. On the JSON protocol AWS answers a `__type`
// and an `x-amzn-query-error: <query code>;Sender` header (SDKs name the error from the header); the query protocol
// answers the query code in XML. The two spellings differ for the service model's `awsQueryError` codes and for
// the common errors, as recorded on AWS (e.g. `InvalidParameterValue` → `__type` InvalidParameterValueException).
import { SqsError } from "./fauxqs-internals.mjs";

const PREFIX = "AWS.SimpleQueueService.";
const PREFIXED = [
  "BatchEntryIdsNotDistinct", "BatchRequestTooLong", "EmptyBatchRequest", "InvalidBatchEntryId", "MessageNotInflight",
  "PurgeQueueInProgress", "QueueDeletedRecently", "TooManyEntriesInBatchRequest", "UnsupportedOperation",
];

/** The error's name as thrown here → [JSON `__type`, query code]; every other name is the same in both. */
const SPELLINGS = new Map([
  ["QueueDoesNotExist", ["QueueDoesNotExist", `${PREFIX}NonExistentQueue`]],
  ["QueueNameExists", ["QueueNameExists", "QueueAlreadyExists"]],
  ["InvalidParameterValue", ["InvalidParameterValueException", "InvalidParameterValue"]],
  ["MissingParameter", ["MissingRequiredParameterException", "MissingParameter"]],
  ["AccessDenied", ["AccessDeniedException", "AccessDenied"]],
  ...PREFIXED.map((name) => [name, [name, `${PREFIX}${name}`]]),
]);

/** `{ json, query }` spellings of an error name (a query spelling or a JSON type is accepted too). */
export function spell(name) {
  for (const [own, [json, query]] of SPELLINGS) if (name === own || name === json || name === query) return { json, query };
  return { json: name, query: name };
}

/** An SQS error with AWS's identity; fauxqs's router answers it (status, header, body) like its own. */
export function sqsError(name, message, statusCode = 400) {
  return new SqsError(name, message, statusCode, true);
}

/** Gives every SqsError (fauxqs's and ours) AWS's JSON `__type` and `x-amzn-query-error` code. */
export function installAwsErrorNames() {
  SqsError.prototype.toJSON = function () {
    return { __type: `com.amazonaws.sqs#${spell(this.code).json}`, message: this.message };
  };
  Object.defineProperty(SqsError.prototype, "queryErrorHeader", {
    configurable: true,
    get() {
      return `${spell(this.code).query};${this.senderFault ? "Sender" : "Receiver"}`;
    },
  });
}

/** Sends an SqsError from a hook (outside fauxqs's router) exactly as the router would. */
export function replyWithError(reply, error) {
  return reply
    .code(error.statusCode)
    .header("content-type", "application/x-amz-json-1.0")
    .header("x-amzn-query-error", error.queryErrorHeader)
    .send(error.toJSON());
}
