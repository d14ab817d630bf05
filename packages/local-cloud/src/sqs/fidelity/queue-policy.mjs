// The explicit Deny statements of a queue's `Policy` attribute, honoured for every call so a rehearsal refuses what AWS
// refuses. How SQS evaluates them, and which policies cannot be evaluated exactly (refused when set), is SQS's rule, one
// copy for both SQS implementations (../rules/queue-policy.cjs); here: where fauxqs's calls meet it.
import { sqsError } from "./aws-errors.mjs";
import queuePolicyRules from "../rules/queue-policy.cjs";

const { policyDenial, policyProblem } = queuePolicyRules;

/** Throws InvalidAttributeValue for a policy whose Deny statements cannot be evaluated here. */
export function checkPolicy(text) {
  const problem = policyProblem(text);
  if (problem) throw sqsError(problem.code, problem.message);
}

/** Throws AccessDenied when an explicit Deny of the queue's policy names this call. */
export function checkPolicyAllows(action, queue, caller) {
  const problem = queue ? policyDenial(queue.attributes?.Policy, action, queue.arn, caller) : undefined;
  if (problem) throw sqsError(problem.code, problem.message, problem.status);
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
