import template from "./pipeline.asl.json";

/** Values that fill the placeholders of `pipeline.asl.json`. */
export interface PipelineDefinitionParams {
  /** Name of the ledger table (pk/sk) the claim is written to. */
  readonly ledgerTableName: string;
  /** ARN of the downstream function. */
  readonly functionArn: string;
  /** URL of the dead-letter queue that receives quarantined messages. */
  readonly deadLetterQueueUrl: string;
  /** Operation name stored as the ledger sort key, e.g. `charge`. */
  readonly operation: string;
  /** JSONata expression evaluated with the parsed message body as context, e.g. `tenantId & '#' & orderId`. */
  readonly keyExpression: string;
  /** Top-level body fields that must be non-empty strings or numbers; otherwise the message is `invalid-message`. */
  readonly requiredFields: readonly string[];
  /** Top-level body fields covered by the payload hash (order of the message's own fields does not matter). */
  readonly payloadFields: readonly string[];
  readonly leaseSeconds: number;
  readonly retentionSeconds: number;
  readonly executionTimeoutSeconds: number;
  readonly invokeTimeoutSeconds: number;
  /** Retries of Lambda service errors (not function errors). */
  readonly lambdaRetries: number;
  /** Records of one batch processed at once. */
  readonly maxConcurrency: number;
  /** Function error names that quarantine the message as `rejected` instead of retrying it. */
  readonly permanentErrors: readonly string[];
  /** Backoff for throttled or failed ledger calls. */
  readonly ledgerRetry: { readonly intervalSeconds: number; readonly maxAttempts: number; readonly backoffRate: number };
}

/** The ledger errors worth retrying: throttling and server-side faults, never a failed condition. */
export const LEDGER_RETRYABLE_ERRORS = [
  "DynamoDB.ProvisionedThroughputExceededException",
  "DynamoDB.ThrottlingException",
  "DynamoDB.RequestLimitExceeded",
  "DynamoDB.InternalServerError",
  "DynamoDB.AmazonDynamoDBException",
  "DynamoDB.SdkClientException",
] as const;

const PLACEHOLDER = /\{\{([A-Za-z]+)\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{([A-Za-z]+)\}\}$/;

/** A JSONata string literal (single quotes, as the JSON text around it uses double quotes). */
export function jsonataString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function jsonataStringArray(values: readonly string[]): string {
  return `[${values.map(jsonataString).join(", ")}]`;
}

/** `{'amount': $lookup($body, 'amount'), ...}`: a fixed field order, so the hash ignores the message's own order. */
function payloadObject(fields: readonly string[]): string {
  return `{${fields.map((f) => `${jsonataString(f)}: $lookup($body, ${jsonataString(f)})`).join(", ")}}`;
}

function placeholderValues(p: PipelineDefinitionParams): Record<string, unknown> {
  return {
    LedgerTableName: p.ledgerTableName,
    FunctionArn: p.functionArn,
    DeadLetterQueueUrl: p.deadLetterQueueUrl,
    Operation: p.operation,
    KeyExpression: p.keyExpression,
    RequiredFields: jsonataStringArray(p.requiredFields),
    PayloadObject: payloadObject(p.payloadFields),
    LeaseSeconds: p.leaseSeconds,
    RetentionSeconds: p.retentionSeconds,
    ExecutionTimeoutSeconds: p.executionTimeoutSeconds,
    InvokeTimeoutSeconds: p.invokeTimeoutSeconds,
    LambdaRetries: p.lambdaRetries,
    MaxConcurrency: p.maxConcurrency,
    PermanentErrors: [...p.permanentErrors],
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
  return fill(template, placeholderValues(params)) as Record<string, unknown>;
}
