import type { FieldRules } from "@effectively-once/contract";
import type { DeployTarget } from "./deploy-target";
import type { FifoProps } from "./fifo-props";
import type { DownstreamFunctionProps } from "./function-props";
import type { PipelineEncryptionProps, ResolvedEncryption } from "./encryption";
import type { QueueAccessProps, ResolvedQueueAccess } from "./queue-access-props";

/** How the pipeline recognises one business operation in a message body. */
export interface BusinessKeyProps {
  /**
   * JSONata expression evaluated with the parsed message body as context, yielding the key's parts as an array
   * (a single value is a one-part key). The ledger key is the canonical JSON of the parts, e.g. `["t1","o-42"]`,
   * so no value can forge another key. It must name business identity plus intent, never the SQS messageId.
   * Concatenation (`&`, `$join`, `$string`) is refused at synth: a separator inside a value would make two keys one.
   * So is anything that is not a pure function of `requiredFields`: functions (a clock, `$random`, `$uuid`), the
   * context, variables, deeper paths, operators (see packages/contract/src/key-expression-grammar.ts).
   * @example "[tenantId, orderId]"
   */
  readonly expression: string;
  /**
   * Top-level body fields the expression reads, every one of them (a typo is refused at synth). Each must satisfy
   * its rule in `fieldRules`, of one JSON type (`string`, `integer` or `number`; default: a non-empty string); a
   * message breaking one is quarantined as `invalid-message`.
   */
  readonly requiredFields: readonly string[];
}

export const StateMachineLogLevel = { All: "ALL", Error: "ERROR", Fatal: "FATAL", Off: "OFF" } as const;
export type StateMachineLogLevel = (typeof StateMachineLogLevel)[keyof typeof StateMachineLogLevel];

/** Props of {@link IdempotentPipeline}. Durations are in seconds. FIFO mode's props: {@link FifoProps}. */
export interface IdempotentPipelineProps extends FifoProps {
  /** Prefix of every resource name (letters, digits, `-`, `_`; at most 40). */
  readonly namePrefix: string;
  /**
   * The region the stack deploys to.
   * @deprecated The pipeline reads its region from the provider (`data "aws_region"`), so it holds when the region
   * comes from the environment at plan time. Remove this prop; a value different from the provider's literal region
   * is refused at synth (docs/upgrading.md).
   * @default the provider's region
   */
  readonly region?: string;
  /** How the pipeline derives each message's business key (the ledger's partition key). */
  readonly businessKey: BusinessKeyProps;
  /** Ledger sort key: the intent, so one entity can carry several operations. @default "process" */
  readonly operation?: string;
  /**
   * Body fields covered by the payload hash (conflict detection); field order in the message does not matter. Names
   * follow `fieldNameProblem` (packages/contract/src/field-rules.ts): no whitespace, control characters or Object.prototype members.
   */
  readonly payloadFields: readonly string[];
  /**
   * What each top-level field must hold, enforced alike by the state machine (`invalid-message`) and the
   * function, so both layers give a message one fate. Key fields default to a non-empty string (a key field has one
   * JSON type: `string-or-integer` is refused there), payload fields to any JSON value with exact numbers. @default {}
   */
  readonly fieldRules?: FieldRules;
  /** The downstream function: your side effect, wrapped with `createPipelineHandler`. */
  readonly function: DownstreamFunctionProps;

  /**
   * Workflow type. Only EXPRESS can be called synchronously by a pipe; anything else fails at synth.
   * @default "EXPRESS"
   */
  readonly stateMachineType?: "EXPRESS" | "STANDARD";
  /**
   * How the pipe calls the workflow. Only REQUEST_RESPONSE lets the workflow report partial batch failures;
   * FIRE_AND_FORGET would acknowledge every message before it is processed, so it fails at synth.
   * @default "REQUEST_RESPONSE"
   */
  readonly invocationType?: "REQUEST_RESPONSE" | "FIRE_AND_FORGET";
  /** Records per pipe batch (one execution). @default 10 (FIFO: 2, fifo-props.ts) */
  readonly batchSize?: number;
  /** Pipe batching window; FIFO refuses one (Lambda's SQS poller supports none on FIFO queues). @default 1 (FIFO: 0) */
  readonly maximumBatchingWindowSeconds?: number;
  /** EventBridge patterns (objects) on the record; messages matching none are dropped by the pipe. @default none */
  readonly filterPatterns?: readonly Record<string, unknown>[];
  /** Records of a batch processed at once (FIFO: message groups of a batch processed at once). @default batchSize */
  readonly maxConcurrency?: number;
  /**
   * Standard mode: one function invocation per batch, carrying the records the workflow claimed, instead of one per
   * claimed record (docs/guarantees.md, "One invocation per batch"). The function runs them `maxConcurrency` at once
   * (`PIPELINE_BATCH_CONCURRENCY`) and answers one outcome per record; without a usable answer a record is invoked
   * alone. `function.timeoutSeconds` then bounds a whole batch: ceil(batchSize / maxConcurrency) records in a row.
   * `false` keeps one invocation per claimed record. Either change of this setting changes the function's event shape:
   * the order of the deploys matters (docs/upgrading.md). FIFO mode invokes per record (a group's order): unset means
   * `false` there, and `true` is refused.
   * @default true (FIFO: false)
   */
  readonly batchInvocation?: boolean;

  /** State machine `TimeoutSeconds`: the longest a batch can take (EXPRESS allows 300); at least the worst case of one record (FIFO: of `batchSize` records one after another; `batchInvocation`: of a batch invoked once, then each record perhaps alone). @default 190 (batchInvocation: false: 120; FIFO: 240) */
  readonly executionTimeoutSeconds?: number;
  /** Queue visibility timeout; AWS asks for at least 6 × the target's maximum execution time. @default 6 × executionTimeoutSeconds */
  readonly visibilityTimeoutSeconds?: number;
  /** Receives before the queue moves a message to the DLQ (`retries-exhausted`). @default 5 */
  readonly maxReceiveCount?: number;
  /** Source queue message retention; ≥ oldestMessageAgeAlarmSeconds + maxReceiveCount × visibility timeout (retention.ts). @default 345600 (4 days) */
  readonly messageRetentionSeconds?: number;
  /** DLQ message retention; ≥ the source queue's + 1 day (a moved copy keeps its first-send time). @default 1209600 (14 days, the SQS maximum) */
  readonly deadLetterRetentionSeconds?: number;
  /**
   * The largest message a producer may send: body and attributes (names, types and values) in UTF-8 bytes, as SQS
   * counts them, with at most 9 attributes. The source queue's `max_message_size` is this plus the 37 bytes the
   * redrive's `firstSentTimestamp` needs (`REDRIVE_ATTRIBUTE_BYTES`), so every such message can be redriven. With
   * `batchSize`, bounded so that a whole batch of the largest messages, in any script, fits the 262,144 bytes of
   * UTF-8 StartSyncExecution accepts (byte-rules.ts; the table in docs/construct.md), and so that a quarantined copy
   * with its attributes fits the DLQ.
   * @default 6144 (6 KiB: a batch of 10 fits)
   */
  readonly maxMessageBytes?: number;

  /** How long a claim protects an in-flight record before another message may take the key over; below the visibility timeout minus the batching window and one long poll (20 s), and at least the longest invocation. @default executionTimeoutSeconds */
  readonly leaseSeconds?: number;
  /** How long a key is remembered (ledger TTL and Powertools expiry); at least the DLQ's retention and any run holding a claim (FIFO: the source queue's plus the DLQ's, whose clock restarts at the move). @default 1209600 (14 days; FIFO: messageRetentionSeconds + deadLetterRetentionSeconds, 18 days) */
  readonly retentionSeconds?: number;
  /** Retries of Lambda service errors (throttles, 5xx), not of function errors. @default 2 */
  readonly lambdaRetries?: number;
  /** Backoff of throttled ledger calls. @default { intervalSeconds: 1, maxAttempts: 3, backoffRate: 2 } */
  readonly ledgerRetry?: {
    /** Wait before the first retry. */
    readonly intervalSeconds: number;
    /** Retries at most (Step Functions' `MaxAttempts`). */
    readonly maxAttempts: number;
    /** Factor applied to the wait after each retry. */
    readonly backoffRate: number;
  };

  /**
   * Retention of the workflow's, the function's and the pipe's log groups: one of CloudWatch Logs' values (1, 3, 5, 7,
   * 14, 30, …, 3653), or 0 for never expire (the provider then sets no retention policy; storage grows without bound).
   * @default 14
   */
  readonly logRetentionDays?: number;
  /** State machine log level. @default "ERROR" */
  readonly stateMachineLogLevel?: StateMachineLogLevel;
  /** Log state inputs and outputs (message bodies) with the state machine's log events. @default false */
  readonly includeExecutionDataInLogs?: boolean;
  /** X-Ray tracing on the state machine and the function. @default true */
  readonly tracing?: boolean;
  /** Point-in-time recovery on the ledger and idempotency tables. @default true */
  readonly pointInTimeRecovery?: boolean;
  /** Deletion protection on the ledger and the idempotency table (both hold what the pipeline remembers). @default true */
  readonly deletionProtection?: boolean;
  /**
   * ARNs notified when an alarm changes state (e.g. an SNS topic, an incident tool's endpoint). Left out, the
   * construct creates an SNS topic `<namePrefix>-alarms`, notifies it and outputs its ARN (`alarm_topic_arn`):
   * subscribe a person to it (docs/operations.md, "Who hears an alarm"). `[]` declines every action explicitly; the
   * synth then warns that no alarm reaches anyone. @default a new SNS topic
   */
  readonly alarmActions?: readonly string[];
  /**
   * With the alarm topic (`alarmActions` left out), an EventBridge rule `<namePrefix>-queue-edits` sends the topic every
   * `SetQueueAttributes`, `AddPermission` and `RemovePermission` call on the source queue and the DLQ, as CloudTrail
   * records it: the start of the one path back from the DLQ that AWS cannot refuse (docs/guarantees.md, "paths back
   * from the DLQ"). It hears only while a CloudTrail trail with logging enabled records the account's management events
   * in the stack's region. `false` leaves the rule and the topic policy it needs out. @default true
   */
  readonly queueEditAlert?: boolean;
  /**
   * How long before SQS's retention deletes the oldest DLQ message the `dlq-expiry` alarm fires. The alarm's
   * threshold is the DLQ's retention minus this, minus (standard queues) the source queue's retention, because a
   * moved message keeps its first enqueue time while the DLQ's age metric counts from the move (alarm-thresholds.ts).
   * @default 86400 (1 day), or less when the retentions leave less, so that the threshold stays at least an hour
   */
  readonly deadLetterExpiryWarningSeconds?: number;
  /**
   * The share of pipe executions you plan to see partially failed (a record retried: a duplicate still IN_PROGRESS,
   * a transient error). The `pipe-partial-failures` alarm fires when the measured share stays above it.
   * @default 0.2
   */
  readonly plannedPartialBatchRatio?: number;
  /** Alarm when the oldest message in the source queue is older than this. @default 600 */
  readonly oldestMessageAgeAlarmSeconds?: number;
  /** Prefix of the Terraform output names, for stacks holding several pipelines. @default "" */
  readonly outputPrefix?: string;

  /**
   * ARN of an IAM managed policy set as the permissions boundary of the stack's three roles (the function's, the
   * pipe's and the workflow's). Without one, whoever may deploy the stack can write any inline policy into those roles
   * and run code through them: deploy rights are then admin rights. With one an administrator owns, the roles never
   * hold more than it allows, and `npm run deployer-policy` lets the deployer create and change roles only with it in
   * place (docs/deploy.md, "Self-escalation"). Must be a policy of the stack's partition. @default none
   */
  readonly permissionsBoundary?: string;
  /**
   * A customer managed KMS key for the queues, the tables, the log groups, the state machine and the function's
   * environment, with the roles allowed exactly the KMS calls each service makes for them. The key policy is yours:
   * it must allow CloudWatch Logs (docs/construct.md, "Encryption with your own KMS key"). @default AWS's keys
   * (SQS-managed SSE, DynamoDB's AWS managed key, CloudWatch Logs', Step Functions' and Lambda's own)
   */
  readonly encryption?: PipelineEncryptionProps;
  /**
   * RISK: lets SQS's own DLQ redrive (the console's "Start DLQ redrive", `StartMessageMoveTask`) move messages past
   * every guard of `pipeline-ops dlq redrive`. A moved copy gets a new message id, enqueue time and retention, so it
   * can be applied twice (after its key's memory ended), applied with a conflicting payload, or lost (the pipe's
   * filter drops it). By default the DLQ's queue policy denies `sqs:StartMessageMoveTask` to every principal; with
   * `true` the guarantee does not cover such moves (docs/guarantees.md). @default false
   */
  readonly allowUnguardedDlqMoves?: boolean;
  /**
   * RISK: lets `PurgeQueue` delete every message of the source queue (unprocessed ones) and of the DLQ (quarantined
   * ones): they end in none of the three fates. By default both queue policies deny `sqs:PurgeQueue` to every
   * principal; with `true` the guarantee does not cover a purge. @default false
   */
  readonly allowQueuePurge?: boolean;
  /**
   * Who sends to the source queue (SNS topics, EventBridge rules, S3 buckets, accounts, roles) and any other grant the
   * queues need (e.g. an operations account that reads the DLQ). SQS keeps one policy per queue and the construct
   * writes it whole, beside its own Deny statements: a grant set outside this prop (the console's "Subscribe to Amazon
   * SNS topic", another `aws_sqs_queue_policy`) is removed by the next deploy, and SNS, EventBridge and S3 then drop
   * their deliveries. Declare every producer that reaches the queue through its policy before deploying
   * (docs/construct.md, "Producers and queue access"; docs/upgrading.md).
   * @default {} (no producer in the policy: only principals of the queue's own account whose IAM policies allow sqs:SendMessage can send)
   */
  readonly queueAccess?: QueueAccessProps;
}

/** What a domain decides, apart from its resources: the key, the intent, the payload fields and their rules. */
export type PipelineDomain = Pick<IdempotentPipelineProps, "businessKey" | "operation" | "payloadFields" | "fieldRules">;

/** Props with every default applied: what the parts of the construct read. */
export type ResolvedPipelineProps = Required<Omit<IdempotentPipelineProps, "function" | "filterPatterns" | "region" | "queueAccess" | "permissionsBoundary" | "encryption">> & {
  readonly queueAccess: ResolvedQueueAccess;
  readonly function: Required<Omit<DownstreamFunctionProps, "reservedConcurrency">> & { readonly reservedConcurrency?: number };
  readonly filterPatterns: readonly Record<string, unknown>[];
  /** The deprecated `region` prop, as given (checked against the provider's, used for nothing else). */
  readonly region?: string;
  readonly permissionsBoundary?: string;
  readonly encryption?: ResolvedEncryption;
  /** What the synth knows of the provider (its bindings' version, its literal region): not a prop. */
  readonly target: DeployTarget;
  /** True when `alarmActions` was left out: the construct creates the alarm topic and notifies it. */
  readonly alarmTopic: boolean;
};
