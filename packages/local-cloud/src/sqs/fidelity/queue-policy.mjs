// The explicit Deny statements of a queue's `Policy` attribute, honoured for the actions they name, so a rehearsal
// refuses what AWS refuses (the local cloud emulates no IAM: everything not denied here is allowed). A Deny applies
// when its Principal is everyone (`"*"` or `{"AWS": "*"}`), its Action matches the call's permission (`sqs:Name`,
// wildcards, any case) and its Resource matches the queue's ARN (or is absent). The call then fails as on AWS:
// AccessDenied, HTTP 403. Batch actions are authorized as their single action (SendMessageBatch → sqs:SendMessage).
//
// A Deny this layer cannot evaluate exactly (a Condition, NotAction, NotResource, NotPrincipal, a named Principal)
// is refused when the policy is set (CreateQueue / SetQueueAttributes: InvalidAttributeValue naming the statement
// and the element), never guessed: guessing either way would make a rehearsal refuse or allow what AWS would not.
import { sqsError } from "./aws-errors.mjs";

const UNSUPPORTED = ["Condition", "NotAction", "NotResource", "NotPrincipal"];
const PERMISSION_OF = new Map([
  ["SendMessageBatch", "SendMessage"],
  ["DeleteMessageBatch", "DeleteMessage"],
  ["ChangeMessageVisibilityBatch", "ChangeMessageVisibility"],
]);

const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** IAM's wildcard match (`*`, `?`), case-insensitive for actions. */
function matches(pattern, value, ignoreCase) {
  const source = String(pattern).replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`, ignoreCase ? "i" : "").test(value);
}

const everyone = (principal) => principal === "*" || (principal && typeof principal === "object" && !Array.isArray(principal) && Object.keys(principal).length === 1 && list(principal.AWS).length > 0 && list(principal.AWS).every((p) => p === "*"));

function statementsOf(text) {
  const document = JSON.parse(text);
  if (!document || typeof document !== "object") throw new Error("not a JSON object");
  return list(document.Statement);
}

/** Throws InvalidAttributeValue for a policy whose Deny statements cannot be evaluated here (see above). */
export function checkPolicy(text) {
  if (text === undefined || text === "") return;
  let statements;
  try {
    statements = statementsOf(text);
  } catch (error) {
    throw sqsError("InvalidAttributeValue", `Invalid value for the parameter Policy. Reason: ${error.message}.`);
  }
  statements.forEach((statement, i) => {
    if (statement?.Effect !== "Deny") return;
    const name = statement.Sid ? `"${statement.Sid}"` : `#${i + 1}`;
    const element = UNSUPPORTED.find((key) => key in statement) ?? (everyone(statement.Principal) ? undefined : "Principal");
    if (element) {
      throw sqsError(
        "InvalidAttributeValue",
        `Invalid value for the parameter Policy. Reason: Deny statement ${name} uses ${element} ${JSON.stringify(statement[element] ?? null)}, which the local SQS ` +
          'cannot evaluate (it honours Deny statements for Principal "*" on Action and Resource only). Deny for everyone without it, or leave the statement out of local runs.',
      );
    }
  });
}

/** Throws AccessDenied when an explicit Deny of the queue's policy names this call. */
export function checkPolicyAllows(action, queue, caller) {
  const text = queue?.attributes?.Policy;
  if (!text) return;
  const permission = `sqs:${PERMISSION_OF.get(action) ?? action}`;
  let statements;
  try {
    statements = statementsOf(text);
  } catch {
    return;
  }
  const denied = statements.some(
    (s) =>
      s?.Effect === "Deny" &&
      everyone(s.Principal) &&
      list(s.Action).some((pattern) => matches(pattern, permission, true)) &&
      (s.Resource === undefined || list(s.Resource).some((pattern) => matches(pattern, queue.arn, false))),
  );
  if (denied) {
    throw sqsError(
      "AccessDenied",
      `User: ${caller ?? "anonymous"} is not authorized to perform: ${permission.toLowerCase()} on resource: ${queue.arn} with an explicit deny in a resource-based policy`,
      403,
    );
  }
}

/** The queue a call acts on, for the policy check (undefined: no queue policy applies). */
export function queueOfCall(action, body, store) {
  if (action === "StartMessageMoveTask" || action === "ListMessageMoveTasks") return store.getQueueByArn(body.SourceArn);
  if (action === "CancelMessageMoveTask") {
    try {
      return store.getQueueByArn(JSON.parse(Buffer.from(String(body.TaskHandle), "base64").toString("utf8")).sourceArn);
    } catch {
      return undefined;
    }
  }
  return typeof body.QueueUrl === "string" ? store.getQueue(body.QueueUrl) : undefined;
}
