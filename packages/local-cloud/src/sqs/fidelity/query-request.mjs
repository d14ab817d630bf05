// SQS query protocol (form-encoded `Action=...&Version=2012-11-05`) → the JSON protocol request fauxqs serves.
// Shapes follow the SQS 2012-11-05 service model: flattened lists (`AttributeName.1`), flattened maps
// (`Attribute.1.Name` / `Attribute.1.Value`) and batch entries (`SendMessageBatchRequestEntry.1.Id`).

/** Query list/map member name → [JSON member name, how to fold it]. Applies at every depth. */
const MEMBERS = {
  AttributeName: ["AttributeNames", "list"],
  MessageAttributeName: ["MessageAttributeNames", "list"],
  MessageSystemAttributeName: ["MessageSystemAttributeNames", "list"],
  TagKey: ["TagKeys", "list"],
  AWSAccountId: ["AWSAccountIds", "list"],
  ActionName: ["Actions", "list"],
  SendMessageBatchRequestEntry: ["Entries", "list"],
  DeleteMessageBatchRequestEntry: ["Entries", "list"],
  ChangeMessageVisibilityBatchRequestEntry: ["Entries", "list"],
  StringListValue: ["StringListValues", "list"],
  BinaryListValue: ["BinaryListValues", "list"],
  Attribute: ["Attributes", "map"],
  MessageAttribute: ["MessageAttributes", "map"],
  MessageSystemAttribute: ["MessageSystemAttributes", "map"],
  Tag: ["Tags", "map"],
  Tags: ["Tags", "map"],
};

/** Members whose JSON type is an integer; the query protocol sends every value as text. */
const INTEGERS = new Set(["MaxNumberOfMessages", "VisibilityTimeout", "WaitTimeSeconds", "DelaySeconds", "MaxResults"]);

/** The actions of SQS 2012-11-05 (SNS uses the same transport with other names, and Version 2010-03-31). */
export const SQS_ACTIONS = new Set([
  "AddPermission", "CancelMessageMoveTask", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch", "CreateQueue",
  "DeleteMessage", "DeleteMessageBatch", "DeleteQueue", "GetQueueAttributes", "GetQueueUrl",
  "ListDeadLetterSourceQueues", "ListMessageMoveTasks", "ListQueueTags", "ListQueues", "PurgeQueue", "ReceiveMessage",
  "RemovePermission", "SendMessage", "SendMessageBatch", "SetQueueAttributes", "StartMessageMoveTask", "TagQueue",
  "UntagQueue",
]);

/** True when a parsed form body is an SQS query request (and not SNS, which shares the transport). */
export function isSqsQueryRequest(form) {
  return typeof form?.Action === "string" && (SQS_ACTIONS.has(form.Action) || form.Version === "2012-11-05");
}

/** `{ "A.1.B": "x", ... }` → the JSON protocol body for `form.Action`. */
export function queryToJson(form) {
  const tree = {};
  for (const [key, value] of Object.entries(form)) {
    if (key === "Action" || key === "Version") continue;
    const path = key.split(".");
    let node = tree;
    for (let i = 0; i < path.length - 1; i += 1) {
      node[path[i]] ??= {};
      node = node[path[i]];
      if (typeof node !== "object") break; // `A=1&A.1=2`: malformed, keep the scalar
    }
    if (typeof node === "object") node[path[path.length - 1]] = value;
  }
  const body = fold(tree);
  // CreateQueue spells its tags `tags` in the JSON protocol (TagQueue: `Tags`).
  if (form.Action === "CreateQueue" && body.Tags !== undefined) {
    body.tags = body.Tags;
    delete body.Tags;
  }
  return body;
}

function fold(node) {
  const out = {};
  for (const [name, value] of Object.entries(node)) {
    const member = MEMBERS[name];
    if (member && typeof value === "object") {
      const items = indexed(value).map((item) => (typeof item === "object" ? fold(item) : item));
      out[member[0]] = member[1] === "list" ? items : toMap(items);
    } else if (typeof value === "object") {
      out[name] = fold(value);
    } else {
      out[name] = INTEGERS.has(name) && /^-?\d+$/.test(value) ? Number(value) : value;
    }
  }
  return out;
}

/** `{ "2": b, "1": a }` → `[a, b]`, in index order. */
function indexed(node) {
  return Object.keys(node)
    .filter((key) => /^\d+$/.test(key))
    .sort((a, b) => Number(a) - Number(b))
    .map((key) => node[key]);
}

/** Flattened map entries `{Name, Value}` (tags: `{Key, Value}`) → a JSON object. */
function toMap(entries) {
  const map = {};
  for (const entry of entries) {
    const key = entry?.Name ?? entry?.Key;
    if (typeof key === "string") map[key] = entry.Value;
  }
  return map;
}
