import { decodeExpression, QuarantineReason } from "@effectively-once/contract";
import { commentWithKeyDerivation, keyDerivation } from "@effectively-once/contract";
import type { FieldRule } from "@effectively-once/contract";
import { FIRST_SENT_TIMESTAMP, FOLLOWER_FIRST_SENT_TIMESTAMP, FOLLOWER_IDS, FUNCTION_ERROR_DETAIL, LEADER_POSITIONS, movedBackTooLateDetail, PARSE_ERROR_DETAIL, QUARANTINE_ATTRIBUTES, RETURNED_COPY } from "./expressions";
import { batchDefinition } from "./batch";
import { withFateCount, type FateMetricsTarget } from "./fate-count";
import { fifoDefinition } from "./fifo";
import template from "../pipeline.asl.json";

/** Values that fill the placeholders of `pipeline.asl.json`. */
export interface PipelineDefinitionParams {
  /**
   * The AWS partition of the integration ARNs (`arn:<partition>:states:::…`): `aws`, `aws-cn`, … (the construct passes
   * the stack's `data "aws_partition"`).
   */
  readonly partition: string;
  /** Name of the ledger table (pk/sk) the claim is written to. */
  readonly ledgerTableName: string;
  /** ARN of the downstream function. */
  readonly functionArn: string;
  /** URL of the dead-letter queue that receives quarantined messages. */
  readonly deadLetterQueueUrl: string;
  /** Operation name stored as the ledger sort key, e.g. `charge`. */
  readonly operation: string;
  /** JSONata expression over the parsed body yielding the key parts, e.g. `[tenantId, orderId]`. */
  readonly keyExpression: string;
  /** Every field the state machine checks, in order, with its rule (`effectiveRules` in packages/contract/src/field-rules.ts). */
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
  /** Top-level body fields covered by the payload hash (order of the message's own fields does not matter). */
  readonly payloadFields: readonly string[];
  readonly leaseSeconds: number;
  readonly retentionSeconds: number;
  /**
   * The source queue's `MessageRetentionPeriod`: a quarantined copy that SQS moved back (it carries the quarantine's
   * attributes) is applied only while its first send is at most this old; an older one is quarantined again as
   * `moved-back-too-late` (docs/guarantees.md, "paths back from the DLQ").
   */
  readonly messageRetentionSeconds: number;
  readonly executionTimeoutSeconds: number;
  readonly invokeTimeoutSeconds: number;
  /** Retries of Lambda service errors (not function errors). */
  readonly lambdaRetries: number;
  /** Records of one batch processed at once. */
  readonly maxConcurrency: number;
  /** Function error names that quarantine the message as `rejected` instead of retrying it. */
  readonly permanentErrors: readonly string[];
  /**
   * Function error names that mean "this key was applied with another payload" (Powertools'
   * `IdempotencyValidationError`, a downstream's own conflict): quarantined as `payload-mismatch`, so the
   * operator CLI's redrive guard applies.
   */
  readonly conflictErrors: readonly string[];
  /** Backoff for throttled or failed ledger calls. */
  readonly ledgerRetry: { readonly intervalSeconds: number; readonly maxAttempts: number; readonly backoffRate: number };
  /**
   * FIFO mode (fifo.ts): the records of one `MessageGroupId` one after another in batch order, a record to retry on its
   * last receive quarantined as `retries-exhausted`. Needs the source queue's `maxReceiveCount`.
   * @default undefined (standard mode)
   */
  readonly fifo?: { readonly maxReceiveCount: number };
  /**
   * Where the workflow writes the fates it decides without the function, as CloudWatch metrics (fate-count.ts): a log
   * group and stream, and the `service` dimension. The construct always passes it.
   * @default undefined (no counting states: tools that run the definition without a stack, such as the simulation)
   */
  readonly fateMetrics?: FateMetricsTarget;
  /**
   * Standard mode: one function invocation for the claimed records of a batch (batch.ts) instead of one per record.
   * FIFO mode ignores it: a group's records run one after another, each with its own invocation (fifo.ts).
   * @default false (one invocation per claimed record)
   */
  readonly batchInvocation?: boolean;
}

/**
 * The ledger errors worth retrying: throttling and server-side faults, never a failed condition. Step Functions
 * names an optimized integration's errors after the AWS SDK for Java v1 exception classes (`DynamoDB.` + class):
 * AmazonDynamoDBClient maps the wire codes ProvisionedThroughputExceededException, RequestLimitExceeded and
 * InternalServerError to the classes below; unmodeled codes (ValidationException) arrive as the base class
 * AmazonDynamoDBException, and I/O failures as SdkClientException. DynamoDB's current API model names
 * `ThrottlingException` (on-demand tables, every item operation): today it reaches Step Functions as
 * AmazonDynamoDBException, and it is listed by its own name too, so the retrier holds if the integration learns it.
 * AmazonDynamoDBException is retried because the only unmodeled errors the ledger's own requests can meet are
 * throttles: the contract bounds the key (MAX_BUSINESS_KEY_BYTES) and the item, so DynamoDB never finds them
 * invalid; an oversize key is `invalid-message` before any call. (`DynamoDB.InternalServerError` never occurs, so it
 * is not listed.)
 */
export const LEDGER_RETRYABLE_ERRORS = [
  "DynamoDB.ProvisionedThroughputExceededException",
  "DynamoDB.RequestLimitExceededException",
  "DynamoDB.ThrottlingException",
  "DynamoDB.InternalServerErrorException",
  "DynamoDB.AmazonDynamoDBException",
  "DynamoDB.SdkClientException",
] as const;

const PLACEHOLDER = /\{\{([A-Za-z]+)\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{([A-Za-z]+)\}\}$/;

function placeholderValues(p: PipelineDefinitionParams): Record<string, unknown> {
  const conflicts = [...new Set(p.conflictErrors)];
  return {
    Partition: p.partition,
    LedgerTableName: p.ledgerTableName,
    FunctionArn: p.functionArn,
    DeadLetterQueueUrl: p.deadLetterQueueUrl,
    Operation: p.operation,
    DecodeExpression: decodeExpression({ keyExpression: p.keyExpression, rules: p.fieldRules, payloadFields: p.payloadFields }),
    LeaderPositions: LEADER_POSITIONS,
    FollowerIds: FOLLOWER_IDS,
    FirstSentTimestamp: FIRST_SENT_TIMESTAMP,
    FollowerFirstSentTimestamp: FOLLOWER_FIRST_SENT_TIMESTAMP,
    ReturnedCopy: RETURNED_COPY,
    MessageRetentionMillis: p.messageRetentionSeconds * 1000,
    MovedBackTooLate: QuarantineReason.MovedBackTooLate,
    MovedBackTooLateDetail: movedBackTooLateDetail(p.messageRetentionSeconds),
    ParseErrorDetail: PARSE_ERROR_DETAIL,
    FunctionErrorDetail: FUNCTION_ERROR_DETAIL,
    QuarantineAttributes: QUARANTINE_ATTRIBUTES,
    LeaseSeconds: p.leaseSeconds,
    RetentionSeconds: p.retentionSeconds,
    ExecutionTimeoutSeconds: p.executionTimeoutSeconds,
    InvokeTimeoutSeconds: p.invokeTimeoutSeconds,
    LambdaRetries: p.lambdaRetries,
    MaxConcurrency: p.maxConcurrency,
    ConflictErrors: conflicts,
    // A name in both lists is a conflict: its Catch comes first.
    PermanentErrors: [...new Set(p.permanentErrors)].filter((name) => !conflicts.includes(name)),
    LedgerRetry: [
      {
        ErrorEquals: [...LEDGER_RETRYABLE_ERRORS],
        IntervalSeconds: p.ledgerRetry.intervalSeconds,
        BackoffRate: p.ledgerRetry.backoffRate,
        MaxAttempts: p.ledgerRetry.maxAttempts,
        JitterStrategy: "FULL",
      },
    ],
  };
}

function fill(node: unknown, values: Record<string, unknown>): unknown {
  if (typeof node === "string") {
    const whole = WHOLE_PLACEHOLDER.exec(node);
    if (whole) return lookup(values, whole[1]);
    return node.replace(PLACEHOLDER, (_, name: string) => String(lookup(values, name)));
  }
  if (Array.isArray(node)) return node.map((item) => fill(item, values));
  if (node !== null && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fill(v, values)]));
  }
  return node;
}

function lookup(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`pipeline.asl.json uses placeholder {{${name}}}, which the renderer does not know`);
  return values[name];
}

/**
 * Renders the pipeline state machine: the one renderer used by the construct (with Terraform references as
 * values) and by tests (with literal names). A string that is exactly one placeholder takes the value's own JSON
 * type (numbers, arrays); placeholders inside a string are spliced in as text.
 */
export function renderPipelineDefinition(params: PipelineDefinitionParams): Record<string, unknown> {
  if (params.permanentErrors.length + params.conflictErrors.length === 0 || params.conflictErrors.length === 0) {
    throw new Error("renderPipelineDefinition: conflictErrors needs at least one name (e.g. IdempotencyValidationError)");
  }
  const filled = fill(template, placeholderValues(params)) as Record<string, unknown>;
  const shaped = params.fifo ? fifoDefinition(filled, params.fifo.maxReceiveCount) : params.batchInvocation ? batchDefinition(filled) : filled;
  const rendered = params.fateMetrics ? withFateCount(shaped, params.partition, params.fateMetrics) : shaped;
  // The record `npm run plan:review` compares across deploys: a change to it resets both layers' memory of applied keys.
  rendered.Comment = commentWithKeyDerivation(String(rendered.Comment), keyDerivation(params));
  return params.permanentErrors.some((name) => !params.conflictErrors.includes(name)) ? rendered : withoutEmptyCatch(rendered);
}

/** When every permanent error is a conflict, the `rejected` Catch would have an empty ErrorEquals: drop it. */
function withoutEmptyCatch(definition: Record<string, unknown>): Record<string, unknown> {
  const batch = (definition.States as Record<string, { ItemProcessor: { States: Record<string, { Catch: { ErrorEquals: string[] }[] }> } }>).ProcessBatch;
  const invoke = batch.ItemProcessor.States.Invoke;
  invoke.Catch = invoke.Catch.filter((c) => c.ErrorEquals.length > 0);
  return definition;
}
