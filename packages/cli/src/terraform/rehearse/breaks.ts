import { RehearsalUsageError } from "./errors";
import type { StackResource } from "./override";

/**
 * Break tests: a deliberate fault merged into the rehearsal's override, to see which layer catches it (terraform's
 * plan, the provider, or moto at apply). `npx effectively-once rehearse --break <name>`; the run is expected to fail.
 */
export interface Break {
  readonly name: string;
  readonly description: string;
  /** Override `resource` fragments for this stack's resources. */
  fragment(resources: readonly StackResource[]): Record<string, Record<string, Record<string, unknown>>>;
}

function first(resources: readonly StackResource[], type: string, nameHas: string): StackResource {
  const found = resources.find((r) => r.type === type && r.name.includes(nameHas));
  if (!found) throw new RehearsalUsageError(`break test: the stack has no ${type} whose name contains '${nameHas}'`);
  return found;
}

export const BREAKS: readonly Break[] = [
  {
    name: "missing-dlq",
    description: "the source queue's redrive policy names a DLQ that does not exist",
    fragment: (resources) => {
      const queue = first(resources, "aws_sqs_queue", "queues_queue");
      return { [queue.type]: { [queue.name]: { redrive_policy: JSON.stringify({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:123456789012:no-such-dlq", maxReceiveCount: 5 }) } } };
    },
  },
  {
    name: "malformed-iam",
    description: "the workflow role's policy has an action without a service prefix",
    fragment: (resources) => {
      const policy = first(resources, "aws_iam_role_policy", "workflow_policy");
      const document = { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: "PutItem", Resource: "*" }] };
      return { [policy.type]: { [policy.name]: { policy: JSON.stringify(document) } } };
    },
  },
  {
    name: "invalid-json-iam",
    description: "the workflow role's policy is not JSON",
    fragment: (resources) => {
      const policy = first(resources, "aws_iam_role_policy", "workflow_policy");
      return { [policy.type]: { [policy.name]: { policy: '{"Version": "2012-10-17", "Statement": [' } } };
    },
  },
];

export function findBreak(name: string): Break {
  const found = BREAKS.find((b) => b.name === name);
  if (!found) throw new RehearsalUsageError(`--break ${name}: unknown break test; use one of ${BREAKS.map((b) => b.name).join(", ")}`);
  return found;
}
