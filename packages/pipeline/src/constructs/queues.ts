import { SqsQueue } from "@cdktf/provider-aws/lib/sqs-queue";
import { SqsQueueRedriveAllowPolicy } from "@cdktf/provider-aws/lib/sqs-queue-redrive-allow-policy";
import { Construct } from "constructs";
import { DLQ_MAX_MESSAGE_BYTES, sourceQueueMaxBytes } from "../contract/limits";
import type { ResolvedPipelineProps } from "./props";

/** The source queue and its dead-letter queue, both encrypted with SQS-managed keys. */
export class PipelineQueues extends Construct {
  readonly queue: SqsQueue;
  readonly deadLetterQueue: SqsQueue;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps) {
    super(scope, id);
    this.deadLetterQueue = new SqsQueue(this, "dlq", {
      name: `${p.namePrefix}-dlq`,
      messageRetentionSeconds: p.deadLetterRetentionSeconds,
      // Room for the largest source message plus the quarantine's attributes (checked in invariants.ts).
      maxMessageSize: DLQ_MAX_MESSAGE_BYTES,
      sqsManagedSseEnabled: true,
    });
    this.queue = new SqsQueue(this, "queue", {
      name: `${p.namePrefix}-queue`,
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
  }
}
