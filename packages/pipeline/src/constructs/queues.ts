import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueuePolicy } from "@cdktf/provider-aws/lib/sqs-queue-policy";
import { SqsQueueRedriveAllowPolicy } from "@cdktf/provider-aws/lib/sqs-queue-redrive-allow-policy";
import { Construct } from "constructs";
import { DLQ_MAX_MESSAGE_BYTES, sourceQueueMaxBytes } from "@effectively-once/contract";
import { guardedActions, queuePolicyDocument } from "@effectively-once/contract";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineResourceNames } from "./resource-names";

/**
 * The source queue and its dead-letter queue, both encrypted with SQS-managed keys, each with a queue policy that
 * refuses SQS's own actions that bypass the redrive guards (packages/contract/src/queue-guard.ts) unless the props opt out.
 */
export class PipelineQueues extends Construct {
  readonly queue: SqsQueue;
  readonly deadLetterQueue: SqsQueue;
  /** The DLQ's policy (refuses native message moves and purges); absent when both are allowed. */
  readonly deadLetterQueuePolicy?: SqsQueuePolicy;
  /** The source queue's policy (refuses purges); absent when `allowQueuePurge` is set. */
  readonly queuePolicy?: SqsQueuePolicy;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, names: PipelineResourceNames) {
    super(scope, id);
    this.deadLetterQueue = new SqsQueue(this, "dlq", {
      name: names.deadLetterQueue,
      // FIFO: a FIFO queue's DLQ must be FIFO too. No content-based deduplication there: every quarantine sends its
      // own deduplication id (statemachines/src/fifo.ts), so SQS never drops a copy with the same body.
      ...fifoAttributes(p, false),
      messageRetentionSeconds: p.deadLetterRetentionSeconds,
      // Room for the largest source message plus the quarantine's attributes (checked in invariants.ts).
      maxMessageSize: DLQ_MAX_MESSAGE_BYTES,
      sqsManagedSseEnabled: true,
    });
    this.queue = new SqsQueue(this, "queue", {
      name: names.queue,
      ...fifoAttributes(p, p.contentBasedDeduplication),
      visibilityTimeoutSeconds: p.visibilityTimeoutSeconds,
      messageRetentionSeconds: p.messageRetentionSeconds,
      // Explicit: SQS refuses a larger message at send, before it could reach a pipe batch it cannot fit. Producers
      // may send maxMessageBytes; the room above it is the redrive's `firstSentTimestamp` (limits.ts).
      maxMessageSize: sourceQueueMaxBytes(p.maxMessageBytes),
      receiveWaitTimeSeconds: 20,
      sqsManagedSseEnabled: true,
      // JSON.stringify keeps the DLQ ARN a plain reference: no Terraform function for the local cloud to evaluate.
      redrivePolicy: JSON.stringify({ deadLetterTargetArn: this.deadLetterQueue.arn, maxReceiveCount: p.maxReceiveCount }),
    });
    // Only this pipeline's queue may dead-letter into the DLQ.
    new SqsQueueRedriveAllowPolicy(this, "dlq-redrive-allow", {
      queueUrl: this.deadLetterQueue.url,
      redriveAllowPolicy: JSON.stringify({ redrivePermission: "byQueue", sourceQueueArns: [this.queue.arn] }),
    });
    const refused = guardedActions(p);
    this.deadLetterQueuePolicy = this.policy("dlq-policy", this.deadLetterQueue, refused.deadLetterQueue);
    this.queuePolicy = this.policy("queue-policy", this.queue, refused.sourceQueue);
  }

  private policy(id: string, queue: SqsQueue, actions: Parameters<typeof queuePolicyDocument>[1]): SqsQueuePolicy | undefined {
    const policy = queuePolicyDocument(queue.arn, actions);
    return policy === undefined ? undefined : new SqsQueuePolicy(this, id, { queueUrl: queue.url, policy });
  }
}

/**
 * A FIFO queue's attributes (nothing on a standard queue). High-throughput mode is SQS's pair of settings
 * (`DeduplicationScope` messageGroup, `FifoThroughputLimit` perMessageGroupId: "Enabling high throughput for FIFO queues").
 */
function fifoAttributes(p: ResolvedPipelineProps, contentBasedDeduplication: boolean) {
  if (!p.fifo) return {};
  return {
    fifoQueue: true,
    contentBasedDeduplication,
    ...(p.highThroughputFifo ? { deduplicationScope: "messageGroup", fifoThroughputLimit: "perMessageGroupId" } : {}),
  };
}
