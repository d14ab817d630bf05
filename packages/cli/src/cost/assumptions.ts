/**
 * Everything the model cannot read from the stack or the price list. Each value is printed with its reason, and
 * the CLI can override the ones that matter most.
 */
export interface Assumptions {
  /** Bytes of the SQS message body (the payment JSON). */
  readonly messageBodyBytes: number;
  /** Bytes the pipe's SQS record adds around the body (messageId, receiptHandle, attributes, md5, ARNs). */
  readonly recordOverheadBytes: number;
  /** Messages per producer SendMessage call (1 = no SendMessageBatch). */
  readonly producerMessagesPerSend: number;
  /** Stored sizes of the items each path writes or reads (before DynamoDB's 100-byte per-item storage overhead). */
  readonly ledgerItemBytes: number;
  readonly idempotencyItemBytes: number;
  readonly chargeItemBytes: number;
  readonly callItemBytes: number;
  /** Billed duration of one downstream invocation that applies a new key (4 DynamoDB calls, warm). */
  readonly functionMs: number;
  /**
   * One invocation per batch: what each further record of a batch adds to the invocation's billed duration besides its
   * own wave (parsing, validation, hashing; its DynamoDB calls overlap the others'), ms.
   */
  readonly batchRecordOverheadMs: number;
  /** The part of `functionMs` spent in Powertools idempotency (its INPROGRESS put and COMPLETED update): the pipeline's. */
  readonly functionIdempotencyMs: number;
  /** INFO lines the function writes per applied key (one: functions/src/invocation-log.ts). */
  readonly functionInfoLines: number;
  /** Bytes of one Powertools JSON log line (measured on the local cloud: packages/cli/test/cost/path-calls.test.ts). */
  readonly functionLogLineBytes: number;
  /** Bytes the fate metrics add to an invocation's line (the EMF directive and values: packages/cli/test/cost/fate-metrics.test.ts). */
  readonly functionMetricBytes: number;
  /**
   * One invocation per batch writes one summary line (functions/src/invocation-log.ts): its bytes besides the records'
   * entries and the fate metrics (level, message, timestamp, service, request and trace ids, the record count).
   */
  readonly batchLogLineBytes: number;
  /** Bytes each record adds to the summary line: its entry (key, operation, messageId, outcome, what note() added). */
  readonly batchLogRecordBytes: number;
  /** Bytes each record adds to the summary line's EMF document (its values in the metrics' lists; the directive is `functionMetricBytes`, once). */
  readonly batchMetricRecordBytes: number;
  /** Bytes of the EMF events holding one batch's workflow-decided fates (the workflow's PutLogEvents). */
  readonly workflowFateEventBytes: number;
  /** Explicit bytes of function log per invocation; overrides lines × bytes when set. */
  readonly functionLogBytesOverride: number | null;
  /** Lambda platform lines (START/END/REPORT or platform.* JSON) per invocation, when the system log level lets them through. */
  readonly platformLogBytesPerInvocation: number;
  /** CloudWatch Logs counts each event as its UTF-8 bytes plus this much metadata. */
  readonly logEventOverheadBytes: number;
  /** Bytes of one state machine log event without execution data, and of an error event (carries error and cause). */
  readonly sfnEventBytes: number;
  readonly sfnErrorEventBytes: number;
  /** Latencies inside an Express execution, used for its billed duration. */
  readonly sfnStartMs: number;
  readonly sfnStateMs: number;
  readonly sfnDynamoMs: number;
  readonly sfnSqsMs: number;
  readonly sfnLambdaOverheadMs: number;
  /** Memory an execution is billed for (64 MB chunks): the definition (~13 KB) and a batch (≤ 256 KB) fit in one. */
  readonly sfnMemoryMb: number;
  /** Share of executions X-Ray records (default sampling rule: 1 request/s + 5%; at volume the 5% dominates). */
  readonly xraySampleRate: number;
  /** Idle cost: pollers the pipe keeps and the long-poll wait of each empty ReceiveMessage. */
  readonly idlePollers: number;
  readonly idleWaitSeconds: number;
  /** DynamoDB bills storage per item as its size plus 100 bytes. */
  readonly storageItemOverheadBytes: number;
  /** Pipes billing unit for a batch: one request per record ("event", the conservative reading) or per batch. */
  readonly pipesBilling: PipesBilling;
  readonly baseline: BaselineAssumptions;
}

export const PipesBilling = { Event: "event", Batch: "batch" } as const;
export type PipesBilling = (typeof PipesBilling)[keyof typeof PipesBilling];

export const BaselineWorkflow = { Express: "EXPRESS", Standard: "STANDARD" } as const;
export type BaselineWorkflow = (typeof BaselineWorkflow)[keyof typeof BaselineWorkflow];

/** The design this project improves on: a guard Lambda per message in front of the side effect. */
export interface BaselineAssumptions {
  readonly workflow: BaselineWorkflow;
  readonly guardMemoryMb: number;
  /** One conditional PutItem (+ a GetItem on conflict), warm. */
  readonly guardMs: number;
  readonly guardInfoLines: number;
  readonly guardLogLineBytes: number;
}

export const DEFAULT_ASSUMPTIONS: Assumptions = {
  messageBodyBytes: 512,
  recordOverheadBytes: 1024,
  producerMessagesPerSend: 1,
  ledgerItemBytes: 350,
  idempotencyItemBytes: 320,
  chargeItemBytes: 280,
  callItemBytes: 250,
  functionMs: 45,
  batchRecordOverheadMs: 2,
  functionIdempotencyMs: 16,
  functionInfoLines: 1,
  functionLogLineBytes: 440,
  functionMetricBytes: 250,
  batchLogLineBytes: 290,
  batchLogRecordBytes: 240,
  batchMetricRecordBytes: 12,
  workflowFateEventBytes: 540,
  functionLogBytesOverride: null,
  platformLogBytesPerInvocation: 500,
  logEventOverheadBytes: 26,
  sfnEventBytes: 350,
  sfnErrorEventBytes: 650,
  sfnStartMs: 10,
  sfnStateMs: 1,
  sfnDynamoMs: 12,
  sfnSqsMs: 15,
  sfnLambdaOverheadMs: 25,
  sfnMemoryMb: 64,
  xraySampleRate: 0.05,
  idlePollers: 5,
  idleWaitSeconds: 20,
  storageItemOverheadBytes: 100,
  pipesBilling: PipesBilling.Event,
  baseline: {
    workflow: BaselineWorkflow.Express,
    guardMemoryMb: 128,
    guardMs: 15,
    guardInfoLines: 1,
    guardLogLineBytes: 450,
  },
};

/** Why each default is what it is, printed next to the value. */
export const ASSUMPTION_NOTES: Record<Exclude<keyof Assumptions, "baseline">, string> & Record<`baseline.${keyof BaselineAssumptions}`, string> = {
  messageBodyBytes: "payment JSON; the sample order body is ~70 B, real ones carry more fields",
  recordOverheadBytes: "receiptHandle, attributes, md5OfBody, eventSourceARN around each body in the pipe's record",
  producerMessagesPerSend: "producer uses SendMessage, not SendMessageBatch",
  ledgerItemBytes: "pk, sk, status, owner, claimId, payloadHash, timestamps: < 1 KB, so 1 WRU per write (measured on the local cloud)",
  idempotencyItemBytes: "Powertools record with the stored result: 274-300 B measured on the local cloud (packages/cli/test/cost/path-calls.test.ts)",
  chargeItemBytes: "EFFECT item of the downstream stand-in (effect journal): 266 B measured with its fingerprint (packages/cli/test/cost/path-calls.test.ts)",
  callItemBytes: "CALL item of the downstream stand-in",
  functionMs: "4 DynamoDB calls at ~8 ms plus handler work, warm; cold starts not modelled (--function-ms)",
  batchRecordOverheadMs: "a batch invocation (batchInvocation): its records run at once, so it lasts one record's functionMs per wave of the Map's concurrency plus this per further record (an assumption; measured locally: docs/capacity.md)",
  functionIdempotencyMs: "2 of the function's 4 DynamoDB calls at ~8 ms; the rest (EFFECT and CALL puts, handler) is the side effect",
  functionInfoLines: "one compact line per invocation ('invocation applied') at INFO; 0 at WARN and above, ×2 at DEBUG",
  functionLogLineBytes: "measured on the local cloud: Powertools JSON line with key, messageId, request and trace ids, outcome, charge id (was 2 × 560)",
  functionMetricBytes: "Powertools Metrics' EMF directive for Applied and SendToEffectMs plus their values on the invocation line: ≤ 250 B measured (packages/cli/test/cost/fate-metrics.test.ts)",
  batchLogLineBytes: "a batch invocation's summary line without its entries and metrics: 287 B measured with the xray_trace_id AWS adds (packages/cli/test/cost/batch-log-bytes.test.ts)",
  batchLogRecordBytes: "a record's entry on the summary line (key, operation, messageId, outcome, the charge id note() adds): 228 B measured with a 49-character order id (packages/cli/test/cost/batch-log-bytes.test.ts)",
  batchMetricRecordBytes: "a record's values in the summary line's metric lists (Applied's 1, a seven-digit SendToEffectMs): measured (packages/cli/test/cost/batch-log-bytes.test.ts)",
  workflowFateEventBytes: "the EMF events of one batch's PutLogEvents (statemachines/src/fate-count.ts): a batch with a duplicate, a retry and one quarantine reason takes 533 B with the second event's overhead (packages/cli/test/cost/fate-metrics.test.ts); each further reason adds an event",
  functionLogBytesOverride: "set by --log-bytes",
  platformLogBytesPerInvocation: "only with Text log format or system log level INFO/DEBUG (this stack: JSON + WARN, so none)",
  logEventOverheadBytes: "CloudWatch Logs per-event metadata (PutLogEvents accounting)",
  sfnEventBytes: "Express log event without execution data (type, ids, timestamp, execution ARN)",
  sfnErrorEventBytes: "TaskFailed / ParallelStateFailed event with error and cause",
  sfnStartMs: "execution start to first state",
  sfnStateMs: "one Pass / Choice / JSONata evaluation",
  sfnDynamoMs: "one optimized DynamoDB integration call",
  sfnSqsMs: "one sqs:sendMessage integration call",
  sfnLambdaOverheadMs: "lambda:invoke integration overhead on top of the function's own duration",
  sfnMemoryMb: "billed memory chunk; real sync answers report billedMemoryUsedInMB = 64",
  xraySampleRate: "default sampling rule at volume (the 1/s reservoir is ignored)",
  idlePollers: "pipe pollers kept while the queue is empty (Lambda's SQS poller starts with 5; Pipes does not document it)",
  idleWaitSeconds: "long-poll wait of an empty ReceiveMessage",
  storageItemOverheadBytes: "DynamoDB storage overhead per item",
  pipesBilling: "'event': each record is ≥ 1 Pipes request (conservative); 'batch': one request per 64 KB of batch",
  "baseline.workflow": "EXPRESS: a pipe can wait only for an Express workflow (REQUEST_RESPONSE), and it is the cheaper type here",
  "baseline.guardMemoryMb": "smallest Lambda size; the guard only does one conditional write",
  "baseline.guardMs": "one conditional PutItem (+ GetItem on conflict), warm",
  "baseline.guardInfoLines": "one INFO line per decision, same logging config as the downstream function",
  "baseline.guardLogLineBytes": "Powertools JSON line without the charge fields",
};
