// RedriveAllowPolicy, enforced at CreateQueue and SetQueueAttributes by the shared rule (../rules/redrive-allow.cjs):
// a policy SQS would not take is refused, and a RedrivePolicy may name only a queue whose RedriveAllowPolicy lets it.
import redriveAllowRules from "../rules/redrive-allow.cjs";
import { sqsError } from "./aws-errors.mjs";
import { SETTABLE_ATTRIBUTES } from "./fauxqs-internals.mjs";

const { readRedriveAllowPolicy, redrivePolicyProblem } = redriveAllowRules;

/** fauxqs 1.9.2 stores RedriveAllowPolicy at CreateQueue but refuses it in SetQueueAttributes: SQS takes it in both. */
export function patchRedriveAllow() {
  SETTABLE_ATTRIBUTES.add("RedriveAllowPolicy");
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
  const read = attributes.RedriveAllowPolicy === undefined ? undefined : readRedriveAllowPolicy(attributes.RedriveAllowPolicy);
  if (read?.problem) throw sqsError(read.problem.code, read.problem.message);
  if (attributes.RedrivePolicy === undefined || attributes.RedrivePolicy === "") return;
  let targetArn;
  try {
    targetArn = JSON.parse(attributes.RedrivePolicy)?.deadLetterTargetArn;
  } catch {
    return; // fauxqs refuses a redrive policy that is not JSON
  }
  const target = typeof targetArn === "string" ? store.getQueueByArn(targetArn) : undefined;
  if (!target) return; // fauxqs answers a missing dead-letter queue
  const problem = redrivePolicyProblem(attributes.RedrivePolicy, sourceArnOf(action, body, store, target), targetArn, target.attributes.RedriveAllowPolicy);
  if (problem) throw sqsError(problem.code, problem.message);
}
