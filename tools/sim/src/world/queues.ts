/**
 * The simulated stack's two queues, as the construct makes them for the props (packages/pipeline/src/constructs/queues.ts): the queue
 * policies and redrive-allow policies it writes, the source queue's size (what producers may send plus the redrive's room), the redrive policy,
 * and in FIFO mode FIFO queues (the DLQ never derives deduplication ids from bodies; high-throughput mode scopes them
 * per group).
 */
import type { ResolvedPipelineProps } from "@effectively-once/pipeline/settings";
import { sourceQueueMaxBytes } from "@effectively-once/contract";
import { dlqRedriveAllowPolicy, guardedActions, queuePolicyDocument, SOURCE_QUEUE_REDRIVE_ALLOW_POLICY } from "@effectively-once/contract";
import type { ConstructMutation } from "../mutants/mutant";
import type { SimQueues } from "../settings";
import type { SimSqs } from "../sqs/service";

export function addSimQueues(sqs: SimSqs, p: ResolvedPipelineProps, q: SimQueues, mutation: ConstructMutation = {}): void {
  const refused = guardedActions(p);
  const scope = p.highThroughputFifo ? ("messageGroup" as const) : ("queue" as const);
  const fifo = (contentBasedDeduplication: boolean) => (p.fifo ? { fifo: { contentBasedDeduplication, deduplicationScope: scope } } : {});
  sqs.addQueue({ url: q.dlqUrl, arn: q.dlqArn, visibilityTimeoutSeconds: 30, retentionSeconds: p.deadLetterRetentionSeconds, maxMessageBytes: 262_144, policy: queuePolicyDocument(q.dlqArn, refused.deadLetterQueue), redriveAllowPolicy: JSON.stringify(dlqRedriveAllowPolicy(q.queueArn)), ...fifo(false) });
  sqs.addQueue({
    ...fifo(p.contentBasedDeduplication),
    policy: queuePolicyDocument(q.queueArn, refused.sourceQueue),
    // A mutant leaves it out (a48d984's queue): SQS's default, allowAll, lets the DLQ name the source queue as its DLQ.
    ...(mutation.sourceRedriveAllowPolicy === false ? {} : { redriveAllowPolicy: JSON.stringify(SOURCE_QUEUE_REDRIVE_ALLOW_POLICY) }),
    url: q.queueUrl,
    arn: q.queueArn,
    visibilityTimeoutSeconds: p.visibilityTimeoutSeconds,
    retentionSeconds: p.messageRetentionSeconds,
    maxMessageBytes: sourceQueueMaxBytes(p.maxMessageBytes),
    redrive: { deadLetterUrl: q.dlqUrl, maxReceiveCount: p.maxReceiveCount },
  });
}
