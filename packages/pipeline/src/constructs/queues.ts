import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueuePolicy } from "@cdktf/provider-aws/lib/sqs-queue-policy";
import { SqsQueueRedriveAllowPolicy } from "@cdktf/provider-aws/lib/sqs-queue-redrive-allow-policy";
import { Construct } from "constructs";
import { DLQ_MAX_MESSAGE_BYTES, sourceQueueMaxBytes } from "@effectively-once/contract";
import { queueEncryption } from "./encryption";
import { dlqRedriveAllowPolicy, SOURCE_QUEUE_REDRIVE_ALLOW_POLICY } from "@effectively-once/contract";
import type { ResolvedPipelineProps } from "./props";
import { declaredProducers, queuePolicyStatements, queuePolicyText, type DeclaredProducer } from "./queue-access";
import type { PipelineResourceNames } from "./resource-names";

/**
 * The source queue and its dead-letter queue, both encrypted (SQS-managed keys, or the `encryption` prop's key), each
 * with ONE queue policy: the Deny statements that refuse SQS's own actions that bypass the redrive guards
 * (packages/contract/src/queue-guard.ts) unless the props opt out, then the declared producers and the team's
 * statements (`queueAccess`, queue-access.ts).
 */
export class PipelineQueues extends Construct {
  readonly queue: SqsQueue;
  readonly deadLetterQueue: SqsQueue;
  /** The DLQ's policy (refuses native message moves and purges, then `queueAccess.deadLetterQueueStatements`); absent when it would be empty. */
  readonly deadLetterQueuePolicy?: SqsQueuePolicy;
  /** The source queue's policy (refuses purges, then the producers and `queueAccess.sourceQueueStatements`); absent when it would be empty. */
  readonly queuePolicy?: SqsQueuePolicy;
  /**
   * The producers `queueAccess.producers` declares, resolved (each service producer's source account filled in), in
   * the order given: who the source queue's policy lets send. Other parts of the stack that must let the same senders
   * in (a KMS key policy, for instance) read them here rather than the prop.
   */
  readonly producers: readonly DeclaredProducer[];

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, names: PipelineResourceNames, account: string) {
    super(scope, id);
    this.deadLetterQueue = new SqsQueue(this, "dlq", {
      name: names.deadLetterQueue,
      // FIFO: a FIFO queue's DLQ must be FIFO too. No content-based deduplication there: every quarantine sends its
      // own deduplication id (statemachines/src/fifo.ts), so SQS never drops a copy with the same body.
      ...fifoAttributes(p, false),
      messageRetentionSeconds: p.deadLetterRetentionSeconds,
      // Room for the largest source message plus the quarantine's attributes (checked in invariants.ts).
      maxMessageSize: DLQ_MAX_MESSAGE_BYTES,
      ...queueEncryption(p.encryption),
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
      ...queueEncryption(p.encryption),
      // JSON.stringify keeps the DLQ ARN a plain reference: no Terraform function for the local cloud to evaluate.
      redrivePolicy: JSON.stringify({ deadLetterTargetArn: this.deadLetterQueue.arn, maxReceiveCount: p.maxReceiveCount }),
    });
    // Only this pipeline's queue may dead-letter into the DLQ, and no queue may dead-letter into the source queue: a
    // redrive policy naming it (the DLQ's own, or a temporary queue's) would move quarantined copies back unchecked,
    // with their original enqueue time (docs/guarantees.md, "paths back from the DLQ").
    new SqsQueueRedriveAllowPolicy(this, "dlq-redrive-allow", {
      queueUrl: this.deadLetterQueue.url,
      redriveAllowPolicy: JSON.stringify(dlqRedriveAllowPolicy(this.queue.arn)),
    });
    new SqsQueueRedriveAllowPolicy(this, "queue-redrive-allow", {
      queueUrl: this.queue.url,
      redriveAllowPolicy: JSON.stringify(SOURCE_QUEUE_REDRIVE_ALLOW_POLICY),
    });
    this.producers = declaredProducers(p.queueAccess, account);
    this.deadLetterQueuePolicy = this.policy("dlq-policy", this.deadLetterQueue, queuePolicyText(queuePolicyStatements("dead-letter", p, this.deadLetterQueue.arn, account)));
    this.queuePolicy = this.policy("queue-policy", this.queue, queuePolicyText(queuePolicyStatements("source", p, this.queue.arn, account)));
  }

  private policy(id: string, queue: SqsQueue, policy: string | undefined): SqsQueuePolicy | undefined {
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
