/** Public types of the Pipes runner. */
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { FilterCriteria } from "@effectively-once/contract/pipe-filter";
import type { ExecutionStatus, InvocationType, RetryReason, RunnerState, WorkflowType } from "./constants";
import type { Clock } from "../clock/clock";

/** What the target function reports; the local cloud adapts the Step Functions interpreter to it. */
export interface TargetResult {
  status: ExecutionStatus;
  /** The execution output (a parsed JSON value or its JSON text). */
  output?: unknown;
  error?: string;
  cause?: string;
}

/** Context of one target invocation. */
export interface TargetContext {
  /** Aborted when the pipe's execution time limit passes or `stop()` gives up waiting. */
  signal: AbortSignal;
}

/**
 * The pipe target: runs one execution with `input` (a JSON value) and resolves with its result. Throwing means
 * the call itself failed (like a connection error to Step Functions), which the runner retries a few times;
 * a failed execution is reported as `{ status: "FAILED" }`, not thrown.
 */
export type PipeTarget = (input: unknown, ctx: TargetContext) => Promise<TargetResult>;

/**
 * What the runner calls on its SQS client: the AWS SDK v3 client's `send(command, { abortSignal })`. The local
 * cloud passes a lean JSON-protocol client with the same shape (src/json-protocol).
 */
export interface SqsSender {
  send(command: { readonly input: object }, options?: { abortSignal?: AbortSignal }): Promise<object>;
}

/** Options of {@link createPipeRunner}. Durations are in the unit their name says. */
export interface PipeRunnerOptions {
  /** Pipe name (used in events, the pipe ARN and `<aws.pipes.pipe-name>`). */
  name: string;
  /** SQS client pointed at the queue's endpoint (the SDK's, or one with its `send` shape). The runner never creates clients. */
  sqs: SQSClient | SqsSender;
  /** Source queue URL, exactly as SQS returned it. */
  queueUrl: string;
  /** Source queue ARN (`arn:aws:sqs:<region>:<account>:<name>`), copied into every record. */
  queueArn: string;
  /** Region copied into every record (`awsRegion`). */
  region: string;
  /** `SqsQueueParameters.BatchSize`: 1..10,000 (FIFO: 1..10). Batches above 10 are gathered over several receives. */
  batchSize: number;
  /** `SqsQueueParameters.MaximumBatchingWindowInSeconds`: 0..300. */
  maximumBatchingWindowInSeconds: number;
  /** `SourceParameters.FilterCriteria`: records matching no filter are dropped and deleted from the queue. */
  filterCriteria?: FilterCriteria;
  /** `TargetParameters.InputTemplate`, applied to each record; absent: the target receives the records as they are. */
  inputTemplate?: string;
  /** `StepFunctionStateMachineParameters.InvocationType`. */
  invocationType: InvocationType;
  /** The target execution. */
  target: PipeTarget;
  /** Workflow type of the target state machine (default EXPRESS); STANDARD cannot be invoked with REQUEST_RESPONSE. */
  workflowType?: WorkflowType;
  /** Target ARN, for `<aws.pipes.target-arn>`. */
  targetArn?: string;
  /** Pipe ARN, for `<aws.pipes.pipe-arn>` (default: built from the queue's region and account and `name`). */
  pipeArn?: string;
  /** Number of concurrent pollers, each with at most one batch in flight (default 2). */
  concurrency?: number;
  /**
   * LOCAL DEVIATION, off by default. When set, records left for retry get this visibility timeout (via
   * ChangeMessageVisibilityBatch) instead of waiting out the queue's own timeout. AWS Pipes never changes a
   * message's visibility (its role needs only ReceiveMessage, DeleteMessage and GetQueueAttributes).
   */
  retryVisibilityTimeoutSeconds?: number;
  /** Limit of one execution including the runner's retries (default 5 minutes, the AWS limit). */
  maximumExecutionMs?: number;
  /** How often a target call that throws is retried before the batch is left to the queue (default 3). */
  targetErrorRetries?: number;
  /** First backoff between such retries (default 200 ms, doubled each time, at most 5 s). */
  targetErrorBackoffMs?: number;
  /**
   * First backoff after a throttled target call (ThrottlingException, TooManyRequestsException; default 100 ms,
   * doubled each time, at most 1 s). Throttled calls are retried without a count, within `maximumExecutionMs`,
   * holding the batch: AWS retries retryable service failures itself and does not count them as receives.
   */
  throttleBackoffMs?: number;
  /** How long `stop()` lets in-flight batches finish before aborting them (default 30 s). */
  stopGracePeriodMs?: number;
  /** Pause after a failed ReceiveMessage before the poller tries again (default 1 s). */
  pollErrorBackoffMs?: number;
  /** Time source (default: the system clock). */
  clock?: Clock;
  /** Receives every {@link PipeEvent}; exceptions it throws are ignored. */
  onEvent?: (event: PipeEvent) => void;
}

/** Failure of one entry of a DeleteMessageBatch call. */
export interface DeleteFailure {
  messageId: string;
  code: string;
  message?: string;
}

interface EventBase {
  pipe: string;
  /** Clock time of the event (ms). */
  at: number;
}

interface BatchEventBase extends EventBase {
  batchId: string;
}

/** Everything the runner reports while it runs. */
export type PipeEvent =
  | (EventBase & { type: "started"; concurrency: number })
  | (EventBase & { type: "stopped" })
  | (EventBase & { type: "poll-error"; error: string })
  | (BatchEventBase & { type: "batch-received"; count: number; messageIds: string[] })
  | (BatchEventBase & { type: "records-filtered"; count: number; messageIds: string[] })
  | (BatchEventBase & { type: "execution-started"; count: number; attempt: number })
  | (BatchEventBase & { type: "target-error"; attempt: number; error: string; willRetry: boolean; throttled?: boolean })
  | (BatchEventBase & {
      type: "execution-finished";
      status: ExecutionStatus | "ABORTED";
      durationMs: number;
      error?: string;
      cause?: string;
    })
  | (BatchEventBase & { type: "invalid-response"; reason: string })
  | (BatchEventBase & { type: "records-acknowledged"; count: number; messageIds: string[] })
  | (BatchEventBase & { type: "records-retry"; count: number; messageIds: string[]; reason: RetryReason })
  | (BatchEventBase & { type: "delete-failed"; failures: DeleteFailure[] })
  | (BatchEventBase & { type: "visibility-change-failed"; count: number; error: string })
  | (BatchEventBase & {
      type: "batch-completed";
      received: number;
      filtered: number;
      acknowledged: number;
      retried: number;
      durationMs: number;
    });

/** Counters since `start()`. */
export interface PipeStats {
  state: RunnerState;
  inFlightBatches: number;
  batches: number;
  messagesReceived: number;
  recordsFiltered: number;
  recordsAcknowledged: number;
  recordsLeftForRetry: number;
  deleteFailures: number;
  invalidResponses: number;
  pollErrors: number;
  executions: {
    started: number;
    succeeded: number;
    failed: number;
    timedOut: number;
    aborted: number;
    targetErrors: number;
    /** Target calls refused as throttled (each retried after a backoff). */
    throttled: number;
  };
}

/** A running pipe. */
export interface PipeRunner {
  /** Starts the pollers. Calling it again while running does nothing. */
  start(): void;
  /** Stops polling, lets in-flight batches finish (aborting them after the grace period), then resolves. */
  stop(options?: { gracePeriodMs?: number }): Promise<void>;
  /** A snapshot of the counters. */
  stats(): PipeStats;
  /** Adds an event listener; returns a function that removes it. */
  subscribe(listener: (event: PipeEvent) => void): () => void;
  /**
   * Resolves once the source queue looks empty (no visible, in-flight or delayed messages, per
   * GetQueueAttributes) and no batch is in flight; rejects with `DrainTimeoutError` after `timeoutMs`
   * (default 60 s).
   */
  drain(options?: { timeoutMs?: number; pollIntervalMs?: number }): Promise<void>;
}
