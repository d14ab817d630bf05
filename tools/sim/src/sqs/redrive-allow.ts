/**
 * SetQueueAttributes in the simulation's SQS, for the two attributes of SQS's redrive-policy move path: a queue's
 * `RedrivePolicy` (any queue may have one, a DLQ too) may name as its DLQ only a queue whose `RedriveAllowPolicy` lets
 * it (`allowAll` by default, `denyAll`, `byQueue`: SQS API reference, SetQueueAttributes), and `RedriveAllowPolicy`
 * itself. The rule is the local cloud's, one copy for both SQS implementations (`@effectively-once/local-cloud/sqs-rules`,
 * packages/local-cloud/src/sqs/rules/redrive-allow.cjs); here it meets the simulation's queues.
 */
import { readRedriveAllowPolicy, redrivePolicyProblem } from "@effectively-once/local-cloud/sqs-rules";
import { SqsError, type SimQueueConfig } from "./model";

type Queues = Map<string, { config: SimQueueConfig }>;

/** The queue with this ARN, as [url, entry]. */
const byArn = (queues: Queues, arn: string) => [...queues.entries()].find(([, q]) => q.config.arn === arn);

/** Applies `RedrivePolicy` / `RedriveAllowPolicy` of a SetQueueAttributes call to the queue at `url`; other attributes are not served. */
export function setRedriveAttributes(queues: Queues, url: string, attributes: Record<string, string>): void {
  const q = queues.get(url);
  if (!q) throw new SqsError("QueueDoesNotExist", `The specified queue does not exist: ${url}`);
  const unknown = Object.keys(attributes).filter((name) => name !== "RedrivePolicy" && name !== "RedriveAllowPolicy");
  if (unknown.length > 0) throw new SqsError("InvalidAction", `simulation: SetQueueAttributes of ${unknown.join(", ")} is not served`);
  let config: SimQueueConfig = q.config;
  if (attributes.RedriveAllowPolicy !== undefined) {
    const { problem } = readRedriveAllowPolicy(attributes.RedriveAllowPolicy);
    if (problem) throw new SqsError(problem.code, problem.message);
    config = { ...config, redriveAllowPolicy: attributes.RedriveAllowPolicy || undefined };
  }
  if (attributes.RedrivePolicy !== undefined) {
    if (attributes.RedrivePolicy === "") {
      config = { ...config, redrive: undefined };
    } else {
      const { deadLetterTargetArn, maxReceiveCount } = JSON.parse(attributes.RedrivePolicy) as { deadLetterTargetArn: string; maxReceiveCount: number };
      const target = byArn(queues, deadLetterTargetArn);
      if (!target) throw new SqsError("InvalidParameterValue", `Value ${attributes.RedrivePolicy} for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.`);
      const problem = redrivePolicyProblem(attributes.RedrivePolicy, config.arn, deadLetterTargetArn, target[1].config.redriveAllowPolicy);
      if (problem) throw new SqsError(problem.code, problem.message);
      config = { ...config, redrive: { deadLetterUrl: target[0], maxReceiveCount: Number(maxReceiveCount) } };
    }
  }
  q.config = config;
}

/** What GetQueueAttributes shows of a queue's redrive attributes (absent ones are left out, as SQS does). */
export function redriveAttributes(queues: Queues, config: SimQueueConfig): { RedriveAllowPolicy?: string; RedrivePolicy?: string } {
  const allow = config.redriveAllowPolicy === undefined ? {} : { RedriveAllowPolicy: config.redriveAllowPolicy };
  const dlq = config.redrive === undefined ? undefined : queues.get(config.redrive.deadLetterUrl)?.config.arn;
  const redrive = dlq === undefined ? {} : { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq, maxReceiveCount: config.redrive?.maxReceiveCount }) };
  return { ...allow, ...redrive };
}
