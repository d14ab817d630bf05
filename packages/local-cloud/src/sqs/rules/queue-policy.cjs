"use strict";
// The explicit Deny statements of a queue's `Policy` attribute, as SQS evaluates them for a call, the one copy for the
// local SQS (fidelity/queue-policy.mjs, every call) and the simulation's SQS (tools/sim/src/sqs/native-actions.ts: the
// move task and the purge). Neither emulates IAM otherwise: everything not denied here is allowed. A Deny applies when
// its Principal is everyone (`"*"` or `{"AWS": "*"}`), its Action matches the call's permission (`sqs:Name`, wildcards,
// any case) and its Resource matches the queue's ARN (or is absent); the call then fails as on AWS: AccessDenied, HTTP
// 403 (an explicit deny overrides every allow: IAM, "Policy evaluation logic"). Batch actions are authorized as their
// single action (SendMessageBatch → sqs:SendMessage).
//
// A Deny this cannot evaluate exactly (a Condition, NotAction, NotResource, NotPrincipal, a named Principal) is refused
// when the policy is set (CreateQueue / SetQueueAttributes: InvalidAttributeValue naming the statement and the element),
// never guessed: guessing either way would make a rehearsal refuse or allow what AWS would not.
//
// Not the contract's `queueGuardOf` (packages/contract/src/queue-guard.ts): that one answers the construct's and the
// operators' question about a planned or deployed policy (is the guard in place, and by which statement?), also
// without the queue's ARN and with Terraform's interpolations; this one is SQS deciding one call.

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

/** Setting a policy: undefined, or the InvalidAttributeValue problem of one whose Deny statements cannot be evaluated (above). */
function policyProblem(text) {
  if (text === undefined || text === "") return undefined;
  let statements;
  try {
    statements = statementsOf(text);
  } catch (error) {
    return { code: "InvalidAttributeValue", message: `Invalid value for the parameter Policy. Reason: ${error.message}.` };
  }
  for (const [i, statement] of statements.entries()) {
    if (statement?.Effect !== "Deny") continue;
    const name = statement.Sid ? `"${statement.Sid}"` : `#${i + 1}`;
    const element = UNSUPPORTED.find((key) => key in statement) ?? (everyone(statement.Principal) ? undefined : "Principal");
    if (element) {
      return {
        code: "InvalidAttributeValue",
        message:
          `Invalid value for the parameter Policy. Reason: Deny statement ${name} uses ${element} ${JSON.stringify(statement[element] ?? null)}, which the local SQS ` +
          'cannot evaluate (it honours Deny statements for Principal "*" on Action and Resource only). Deny for everyone without it, or leave the statement out of local runs.',
      };
    }
  }
  return undefined;
}

/**
 * A call: undefined, or the AccessDenied problem when an explicit Deny of the queue's policy (`policy`: its text;
 * undefined or "" = none) names `action` (SQS's action name, `PurgeQueue`) on `queueArn`. `caller`: the principal.
 */
function policyDenial(policy, action, queueArn, caller) {
  if (!policy) return undefined;
  const permission = `sqs:${PERMISSION_OF.get(action) ?? action}`;
  let statements;
  try {
    statements = statementsOf(policy);
  } catch {
    return undefined;
  }
  const denied = statements.some(
    (s) =>
      s?.Effect === "Deny" &&
      everyone(s.Principal) &&
      list(s.Action).some((pattern) => matches(pattern, permission, true)) &&
      (s.Resource === undefined || list(s.Resource).some((pattern) => matches(pattern, queueArn, false))),
  );
  if (!denied) return undefined;
  return {
    code: "AccessDenied",
    message: `User: ${caller ?? "anonymous"} is not authorized to perform: ${permission.toLowerCase()} on resource: ${queueArn} with an explicit deny in a resource-based policy`,
    status: 403,
  };
}

module.exports = { policyProblem, policyDenial };
