/**
 * The props of `queueAccess`: who sends to the source queue and which other grants the two queues carry. SQS keeps
 * one `Policy` per queue and the construct's `aws_sqs_queue_policy` writes it whole, so every grant a queue needs
 * must be declared here (docs/construct.md, "Producers and queue access").
 */

/** The kinds of producer the construct renders into the source queue's policy. */
export const ProducerKind = {
  /** An SNS topic subscribed to the queue (principal `sns.amazonaws.com`). */
  SnsTopic: "sns-topic",
  /** An EventBridge rule whose target is the queue (principal `events.amazonaws.com`). */
  EventBridgeRule: "eventbridge-rule",
  /** An S3 bucket's event notifications (principal `s3.amazonaws.com`). */
  S3Bucket: "s3-bucket",
  /** An account, role or user (of this or another account) that calls SendMessage itself. */
  AwsPrincipal: "aws-principal",
} as const;
export type ProducerKind = (typeof ProducerKind)[keyof typeof ProducerKind];

/** An AWS service that sends on behalf of one of its resources (SNS, EventBridge, S3). */
export interface ServiceProducer {
  /** Which service sends: an SNS topic, an EventBridge rule or an S3 bucket's event notifications. */
  readonly kind: typeof ProducerKind.SnsTopic | typeof ProducerKind.EventBridgeRule | typeof ProducerKind.S3Bucket;
  /**
   * The topic's, rule's or bucket's ARN (a literal, or a Terraform reference such as `topic.arn`), written into the
   * statement's `aws:SourceArn` condition: the service may send for this resource only.
   */
  readonly arn: string;
  /**
   * The account that owns the resource, written into the `aws:SourceAccount` condition (AWS recommends both keys
   * against the confused deputy). Required for a bucket given as a literal ARN, which names no account.
   * @default the account in `arn` (a topic or rule); for an ARN given as a Terraform reference (a resource of this stack), the stack's account
   */
  readonly account?: string;
}

/** A principal that calls SendMessage with its own credentials, e.g. a service in another account. */
export interface PrincipalProducer {
  /** A principal of IAM (an account, a role, a user). */
  readonly kind: typeof ProducerKind.AwsPrincipal;
  /** A 12-digit account id, or the ARN of an IAM role or user (`arn:aws:iam::111122223333:role/orders`). */
  readonly principal: string;
}

/** One producer of the source queue: a service sending for one of its resources, or a principal. */
export type QueueProducer = ServiceProducer | PrincipalProducer;

/**
 * One more statement for a queue's policy. The construct adds `Resource` (the queue's ARN) and checks it cannot
 * weaken or shadow the construct's Deny statements, nor deny what the pipeline calls.
 */
export interface QueuePolicyStatement {
  /** Statement id: letters and digits, unique in the queue's policy, none of the construct's own. */
  readonly Sid: string;
  /** Allow or Deny, as in IAM. */
  readonly Effect: "Allow" | "Deny";
  /** `"*"` (an Allow then needs a Condition), `{ AWS: [...] }` (accounts, roles, users) or `{ Service: [...] }`. */
  readonly Principal:
    | "*"
    | {
        /** Account ids, or ARNs of roles and users. */
        readonly AWS: string | readonly string[];
      }
    | {
        /** Service principals, e.g. `sns.amazonaws.com`. */
        readonly Service: string | readonly string[];
      };
  /** SQS actions (`sqs:ReceiveMessage`, wildcards allowed), at most 7 (SQS's quota per statement). */
  readonly Action: readonly string[];
  /** IAM condition block, operator → key → value(s). @default none */
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/** The `queueAccess` prop. */
export interface QueueAccessProps {
  /** Who sends to the source queue; each is allowed `sqs:SendMessage` there. @default [] */
  readonly producers?: readonly QueueProducer[];
  /** More statements for the source queue's policy. @default [] */
  readonly sourceQueueStatements?: readonly QueuePolicyStatement[];
  /** More statements for the DLQ's policy, e.g. an operations account that may read it. @default [] */
  readonly deadLetterQueueStatements?: readonly QueuePolicyStatement[];
}

/** `queueAccess` with its defaults applied. */
export type ResolvedQueueAccess = Required<QueueAccessProps>;

export function resolveQueueAccess(access: QueueAccessProps | undefined): ResolvedQueueAccess {
  return { producers: access?.producers ?? [], sourceQueueStatements: access?.sourceQueueStatements ?? [], deadLetterQueueStatements: access?.deadLetterQueueStatements ?? [] };
}
