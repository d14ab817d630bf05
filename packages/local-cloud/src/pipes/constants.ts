/** Option and status values of the Pipes runner (plain `as const` objects, as the house style asks). */

/** How the pipe invokes its Step Functions target (`Target.StepFunctionStateMachineParameters.InvocationType`). */
export const InvocationType = {
  /** StartSyncExecution: wait for the result; the output can report partial batch failures. */
  RequestResponse: "REQUEST_RESPONSE",
  /** StartExecution: do not wait; the batch counts as delivered once the execution is started. */
  FireAndForget: "FIRE_AND_FORGET",
} as const;
export type InvocationType = (typeof InvocationType)[keyof typeof InvocationType];

/** Step Functions workflow type of the target. */
export const WorkflowType = { Express: "EXPRESS", Standard: "STANDARD" } as const;
export type WorkflowType = (typeof WorkflowType)[keyof typeof WorkflowType];

/** Final status of a synchronous execution, as StartSyncExecution reports it. */
export const ExecutionStatus = { Succeeded: "SUCCEEDED", Failed: "FAILED", TimedOut: "TIMED_OUT" } as const;
export type ExecutionStatus = (typeof ExecutionStatus)[keyof typeof ExecutionStatus];

/** Why records of a batch were left on the queue for another delivery. */
export const RetryReason = {
  /** The execution output listed them in `batchItemFailures`. */
  PartialFailure: "partial-failure",
  /** The execution FAILED. */
  ExecutionFailed: "execution-failed",
  /** The execution TIMED_OUT. */
  ExecutionTimedOut: "execution-timed-out",
  /** The execution output was not a valid partial-failure answer: the whole batch counts as failed. */
  InvalidResponse: "invalid-response",
  /** The input template did not render to JSON, so the target could not be invoked. */
  InputTransformFailed: "input-transform-failed",
  /** The target call itself kept failing (it threw) after the runner's own retries. */
  TargetError: "target-error",
  /** The pipe's execution time limit (5 minutes on AWS) passed. */
  PipeTimeout: "pipe-timeout",
  /** `stop()` aborted the execution after its grace period. */
  Stopped: "stopped",
  /** One record's input alone exceeds what a Step Functions target accepts (262,144 characters). */
  PayloadTooLarge: "payload-too-large",
} as const;
export type RetryReason = (typeof RetryReason)[keyof typeof RetryReason];

/** Lifecycle of a runner. */
export const RunnerState = { Idle: "idle", Running: "running", Stopping: "stopping", Stopped: "stopped" } as const;
export type RunnerState = (typeof RunnerState)[keyof typeof RunnerState];

/** AWS limits used by the runner. */
export const PipeLimits = {
  /** SQS returns at most 10 messages per ReceiveMessage and takes at most 10 entries per batch call. */
  SQS_MAX_PER_CALL: 10,
  /** `SourceParameters.SqsQueueParameters.BatchSize`: 1..10,000 (FIFO queues: 1..10). */
  MAX_BATCH_SIZE: 10_000,
  MAX_FIFO_BATCH_SIZE: 10,
  /** `MaximumBatchingWindowInSeconds`: 0..300. */
  MAX_BATCHING_WINDOW_SECONDS: 300,
  /** Longest SQS long poll. */
  MAX_WAIT_TIME_SECONDS: 20,
  /** A Step Functions target receives at most this many characters of input. */
  STEP_FUNCTIONS_MAX_INPUT_CHARS: 262_144,
  /** A pipe execution (enrichment + target) may last at most 5 minutes. */
  MAX_EXECUTION_MS: 5 * 60 * 1000,
} as const;
