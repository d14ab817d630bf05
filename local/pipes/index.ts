/** Local EventBridge Pipes runner: SQS source -> Step Functions target, with AWS Pipes semantics. */
export { createPipeRunner } from "./runner";
export { InvocationType, ExecutionStatus, RetryReason, RunnerState, WorkflowType, PipeLimits } from "./constants";
export { PipesError, PipeConfigError, EventPatternError, DrainTimeoutError } from "./errors";
export { compileEventPattern, matchesEventPattern } from "./event-pattern";
export { systemClock } from "./clock";
export type { CompiledPattern, PatternOperator } from "./event-pattern";
export type {
  Clock,
  DeleteFailure,
  FilterCriteria,
  PipeEvent,
  PipeRunner,
  PipeRunnerOptions,
  PipeStats,
  PipeTarget,
  SqsRecord,
  SqsRecordMessageAttribute,
  SqsSender,
  TargetContext,
  TargetResult,
} from "./types";
