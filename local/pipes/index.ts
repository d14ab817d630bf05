/** Local EventBridge Pipes runner: SQS source -> Step Functions target, with AWS Pipes semantics. */
export { createPipeRunner } from "./runner";
export { PipeConfigError, EventPatternError, DrainTimeoutError } from "./errors";
export { compileEventPattern, matchesEventPattern } from "./event-pattern";
export type { Clock, PipeEvent, PipeRunner, PipeRunnerOptions, PipeStats, PipeTarget, SqsRecord, SqsSender, TargetContext, TargetResult } from "./types";
