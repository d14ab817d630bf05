"use strict";
// RedriveAllowPolicy, the one copy (SQS API reference, CreateQueue / SetQueueAttributes): a queue's `RedrivePolicy` may
// name as its dead-letter queue only a queue whose `RedriveAllowPolicy` lets it: `allowAll` (the default, also when the
// attribute is absent), `denyAll` (no queue), `byQueue` (only the queues of `sourceQueueArns`, at most 10). Any queue
// may have a redrive policy, a dead-letter queue too. The check is made when the redrive policy is set, as AWS documents
// the permission ("which source queues can specify this queue as the dead-letter queue"); AWS's exact error text is not
// recorded, so the answer is InvalidParameterValue naming both queues and the permission. Applied by the local SQS
// (fidelity/redrive-allow.mjs) and the simulation's SQS (tools/sim/src/sqs/redrive-allow.ts); the stack's own rule (the
// source queue is `denyAll`) is packages/contract/src/redrive-paths.ts.

const PERMISSIONS = ["allowAll", "denyAll", "byQueue"];

const refusal = (reason) => ({ code: "InvalidAttributeValue", message: `Invalid value for the parameter RedriveAllowPolicy. Reason: ${reason}` });

/**
 * A `RedriveAllowPolicy` text as SQS reads it (absent or "" = allowAll): `{ allow }`, or `{ problem }` when SQS would
 * not take it (not JSON, an unknown permission, byQueue without 1-10 queues, queues without byQueue).
 */
function readRedriveAllowPolicy(text) {
  if (text === undefined || text === "") return { allow: { redrivePermission: "allowAll", sourceQueueArns: [] } };
  let policy;
  try {
    policy = JSON.parse(text);
  } catch {
    return { problem: refusal(`not JSON: ${text}`) };
  }
  const permission = policy?.redrivePermission;
  if (!PERMISSIONS.includes(permission)) return { problem: refusal(`redrivePermission must be one of ${PERMISSIONS.join(", ")}, got ${JSON.stringify(permission)}.`) };
  const arns = policy.sourceQueueArns;
  if (permission === "byQueue" && (!Array.isArray(arns) || arns.length < 1 || arns.length > 10)) return { problem: refusal("byQueue needs sourceQueueArns with 1 to 10 queue ARNs.") };
  if (permission !== "byQueue" && arns !== undefined) return { problem: refusal(`sourceQueueArns can be given only with byQueue, not ${permission}.`) };
  return { allow: { redrivePermission: permission, sourceQueueArns: Array.isArray(arns) ? arns : [] } };
}

/**
 * Whether queue `sourceArn` may set `redrivePolicy` (its text) naming `targetArn`, whose RedriveAllowPolicy is
 * `targetAllowText`: undefined when it may, else the `{ code, message }` SQS answers.
 */
function redrivePolicyProblem(redrivePolicy, sourceArn, targetArn, targetAllowText) {
  const { allow } = readRedriveAllowPolicy(targetAllowText);
  if (allow && (allow.redrivePermission === "allowAll" || (allow.redrivePermission === "byQueue" && allow.sourceQueueArns.includes(sourceArn)))) return undefined;
  return {
    code: "InvalidParameterValue",
    message: `Value ${redrivePolicy} for parameter RedrivePolicy is invalid. Reason: the RedriveAllowPolicy of ${targetArn} (${allow?.redrivePermission ?? "unreadable"}) does not allow ${sourceArn} to use it as its dead-letter queue.`,
  };
}

module.exports = { readRedriveAllowPolicy, redrivePolicyProblem };
