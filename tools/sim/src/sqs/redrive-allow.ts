/**
 * SetQueueAttributes in the simulation's SQS, for the two attributes of SQS's redrive-policy move path: a queue's
 * `RedrivePolicy` (any queue may have one, a DLQ too) may name as its DLQ only a queue whose `RedriveAllowPolicy` lets
 * it (`allowAll` by default, `denyAll`, `byQueue`: SQS API reference, SetQueueAttributes), and `RedriveAllowPolicy`
 * itself. The rule is read with the contract's reader (packages/contract/src/redrive-paths.ts); the local SQS's twin is
 * packages/local-cloud/src/sqs/fidelity/redrive-allow.mjs, and tools/sim/test/sqs/conformance holds the two to one rule.
 */
import { mayNameAsDeadLetterQueue, readRedriveAllow } from "@effectively-once/contract";
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
    if (readRedriveAllow(attributes.RedriveAllowPolicy) === undefined) throw new SqsError("InvalidAttributeValue", `Invalid value for the parameter RedriveAllowPolicy: ${attributes.RedriveAllowPolicy}`);
    config = { ...config, redriveAllowPolicy: attributes.RedriveAllowPolicy || undefined };
  }
  if (attributes.RedrivePolicy !== undefined) {
    if (attributes.RedrivePolicy === "") {
      config = { ...config, redrive: undefined };
    } else {
      const { deadLetterTargetArn, maxReceiveCount } = JSON.parse(attributes.RedrivePolicy) as { deadLetterTargetArn: string; maxReceiveCount: number };
      const target = byArn(queues, deadLetterTargetArn);
      if (!target) throw new SqsError("InvalidParameterValue", `Value ${attributes.RedrivePolicy} for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.`);
      const allow = readRedriveAllow(target[1].config.redriveAllowPolicy);
      if (!allow || !mayNameAsDeadLetterQueue(allow, config.arn)) {
        throw new SqsError("InvalidParameterValue", `Value ${attributes.RedrivePolicy} for parameter RedrivePolicy is invalid. Reason: the RedriveAllowPolicy of ${deadLetterTargetArn} (${allow?.permission ?? "unreadable"}) does not allow ${config.arn} to use it as its dead-letter queue.`);
      }
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
