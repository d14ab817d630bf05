import { InvalidQueueConfigError } from "./errors";

/** The `aws_sqs_queue` arguments (as in cdk.tf.json) that map onto CreateQueue attributes. */
export interface TerraformSqsQueue {
  name?: string;
  fifo_queue?: boolean;
  content_based_deduplication?: boolean;
  deduplication_scope?: string;
  fifo_throughput_limit?: string;
  visibility_timeout_seconds?: number;
  message_retention_seconds?: number;
  max_message_size?: number;
  delay_seconds?: number;
  receive_wait_time_seconds?: number;
  /** JSON string `{"deadLetterTargetArn": "...", "maxReceiveCount": n}`, references already resolved. */
  redrive_policy?: string;
  redrive_allow_policy?: string;
  policy?: string;
  sqs_managed_sse_enabled?: boolean;
  kms_master_key_id?: string;
  kms_data_key_reuse_period_seconds?: number;
}

const numeric = {
  visibility_timeout_seconds: "VisibilityTimeout",
  message_retention_seconds: "MessageRetentionPeriod",
  max_message_size: "MaximumMessageSize",
  delay_seconds: "DelaySeconds",
  receive_wait_time_seconds: "ReceiveMessageWaitTimeSeconds",
  kms_data_key_reuse_period_seconds: "KmsDataKeyReusePeriodSeconds",
} as const;

const booleans = {
  fifo_queue: "FifoQueue",
  content_based_deduplication: "ContentBasedDeduplication",
  sqs_managed_sse_enabled: "SqsManagedSseEnabled",
} as const;

const strings = {
  deduplication_scope: "DeduplicationScope",
  fifo_throughput_limit: "FifoThroughputLimit",
  redrive_policy: "RedrivePolicy",
  redrive_allow_policy: "RedriveAllowPolicy",
  policy: "Policy",
  kms_master_key_id: "KmsMasterKeyId",
} as const;

/**
 * Maps a synthesized `aws_sqs_queue` to CreateQueue `Attributes` (all values strings, as the API wants).
 * Terraform interpolations (`${...}`) must be resolved first: the local cloud cannot guess them.
 */
export function createQueueAttributesFromTerraform(queue: TerraformSqsQueue): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [field, attribute] of Object.entries(numeric)) {
    const value = queue[field as keyof typeof numeric];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value)) {
      throw new InvalidQueueConfigError(`aws_sqs_queue.${field} must be a whole number, got ${JSON.stringify(value)}`);
    }
    attributes[attribute] = String(value);
  }
  for (const [field, attribute] of Object.entries(booleans)) {
    const value = queue[field as keyof typeof booleans];
    if (value === undefined) continue;
    if (typeof value !== "boolean") {
      throw new InvalidQueueConfigError(`aws_sqs_queue.${field} must be true or false, got ${JSON.stringify(value)}`);
    }
    attributes[attribute] = String(value);
  }
  for (const [field, attribute] of Object.entries(strings)) {
    const value = queue[field as keyof typeof strings];
    if (value === undefined || value === "") continue;
    if (typeof value !== "string") {
      throw new InvalidQueueConfigError(`aws_sqs_queue.${field} must be a string, got ${JSON.stringify(value)}`);
    }
    if (value.includes("${")) {
      throw new InvalidQueueConfigError(
        `aws_sqs_queue.${field} still holds a Terraform reference (${value}); resolve references before creating the queue`,
      );
    }
    attributes[attribute] = value;
  }
  if (attributes.RedrivePolicy !== undefined) checkRedrivePolicy(attributes.RedrivePolicy);
  return attributes;
}

function checkRedrivePolicy(text: string): void {
  let policy: unknown;
  try {
    policy = JSON.parse(text);
  } catch (error) {
    throw new InvalidQueueConfigError("aws_sqs_queue.redrive_policy must be a JSON string", { cause: error });
  }
  const { deadLetterTargetArn, maxReceiveCount } = (policy ?? {}) as Record<string, unknown>;
  if (typeof deadLetterTargetArn !== "string" || !deadLetterTargetArn.startsWith("arn:")) {
    throw new InvalidQueueConfigError("aws_sqs_queue.redrive_policy.deadLetterTargetArn must be the DLQ's ARN");
  }
  const count = Number(maxReceiveCount);
  if (!Number.isInteger(count) || count < 1 || count > 1000) {
    throw new InvalidQueueConfigError("aws_sqs_queue.redrive_policy.maxReceiveCount must be a whole number from 1 to 1000");
  }
}
