// RedriveAllowPolicy, enforced (SQS API reference, CreateQueue / SetQueueAttributes): a queue's `RedrivePolicy` may
// name as its dead-letter queue only a queue whose `RedriveAllowPolicy` lets it: `allowAll` (the default, also when
// the attribute is absent), `denyAll` (no queue), `byQueue` (only the queues of `sourceQueueArns`, at most 10). Any
// queue may have a redrive policy, a dead-letter queue too. The check is made when the redrive policy is set, as AWS
// documents the permission ("which source queues can specify this queue as the dead-letter queue"); AWS's exact error
// text is not recorded, so the answer is InvalidParameterValue naming both queues and the permission. The stack's own
// rule (the source queue is `denyAll`) is packages/contract/src/redrive-paths.ts; the simulation's twin is
// tools/sim/src/sqs/redrive-allow.ts.
import { sqsError } from "./aws-errors.mjs";
import { SETTABLE_ATTRIBUTES } from "./fauxqs-internals.mjs";

/** fauxqs 1.9.2 stores RedriveAllowPolicy at CreateQueue but refuses it in SetQueueAttributes: SQS takes it in both. */
export function patchRedriveAllow() {
  SETTABLE_ATTRIBUTES.add("RedriveAllowPolicy");
}

const PERMISSIONS = ["allowAll", "denyAll", "byQueue"];

/** Refuses a RedriveAllowPolicy SQS would not take: not JSON, an unknown permission, byQueue without 1–10 queues. */
function readAllow(text) {
  if (text === undefined || text === "") return { redrivePermission: "allowAll", sourceQueueArns: [] };
  let policy;
  try {
    policy = JSON.parse(text);
  } catch {
    throw sqsError("InvalidAttributeValue", `Invalid value for the parameter RedriveAllowPolicy. Reason: not JSON: ${text}`);
  }
  const permission = policy?.redrivePermission;
  if (!PERMISSIONS.includes(permission)) {
    throw sqsError("InvalidAttributeValue", `Invalid value for the parameter RedriveAllowPolicy. Reason: redrivePermission must be one of ${PERMISSIONS.join(", ")}, got ${JSON.stringify(permission)}.`);
  }
  const arns = policy.sourceQueueArns;
  if (permission === "byQueue" && (!Array.isArray(arns) || arns.length < 1 || arns.length > 10)) {
    throw sqsError("InvalidAttributeValue", "Invalid value for the parameter RedriveAllowPolicy. Reason: byQueue needs sourceQueueArns with 1 to 10 queue ARNs.");
  }
  if (permission !== "byQueue" && arns !== undefined) {
    throw sqsError("InvalidAttributeValue", `Invalid value for the parameter RedriveAllowPolicy. Reason: sourceQueueArns can be given only with byQueue, not ${permission}.`);
  }
  return { redrivePermission: permission, sourceQueueArns: Array.isArray(arns) ? arns : [] };
}

/** Whether the queue whose RedriveAllowPolicy is `allow` may be named as `sourceArn`'s dead-letter queue. */
export function mayNameAsDeadLetterQueue(allow, sourceArn) {
  if (allow.redrivePermission === "denyAll") return false;
  return allow.redrivePermission === "allowAll" || allow.sourceQueueArns.includes(sourceArn);
}

/** The ARN the call's queue has (SetQueueAttributes) or will have (CreateQueue: the target's account and Region). */
function sourceArnOf(action, body, store, target) {
  if (action === "SetQueueAttributes") return store.getQueue(body.QueueUrl)?.arn;
  return `${target.arn.slice(0, target.arn.lastIndexOf(":") + 1)}${body.QueueName}`;
}

/** CreateQueue / SetQueueAttributes: a RedriveAllowPolicy must be one SQS takes; a RedrivePolicy must be allowed by its target's. */
export function checkRedriveAllow(action, body, store) {
  if (action !== "CreateQueue" && action !== "SetQueueAttributes") return;
  const attributes = body.Attributes ?? {};
  if (attributes.RedriveAllowPolicy !== undefined) readAllow(attributes.RedriveAllowPolicy);
  if (attributes.RedrivePolicy === undefined || attributes.RedrivePolicy === "") return;
  let targetArn;
  try {
    targetArn = JSON.parse(attributes.RedrivePolicy)?.deadLetterTargetArn;
  } catch {
    return; // fauxqs refuses a redrive policy that is not JSON
  }
  const target = typeof targetArn === "string" ? store.getQueueByArn(targetArn) : undefined;
  if (!target) return; // fauxqs answers a missing dead-letter queue
  const sourceArn = sourceArnOf(action, body, store, target);
  const allow = readAllow(target.attributes.RedriveAllowPolicy);
  if (!mayNameAsDeadLetterQueue(allow, sourceArn)) {
    throw sqsError(
      "InvalidParameterValue",
      `Value ${attributes.RedrivePolicy} for parameter RedrivePolicy is invalid. Reason: the RedriveAllowPolicy of ${targetArn} (${allow.redrivePermission}) does not allow ${sourceArn} to use it as its dead-letter queue.`,
    );
  }
}
