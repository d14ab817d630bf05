/** Local EventBridge Pipes runner: SQS source -> Step Functions target, with AWS Pipes semantics. */
export { createPipeRunner } from "./runner";
export { DrainTimeoutError } from "./errors";
export { PipeConfigError, EventPatternError } from "@effectively-once/pipeline/internal/src/pipe-filter/errors";
export type { SqsRecord } from "@effectively-once/pipeline/internal/src/pipe-filter/types";
export { compileEventPattern, matchesEventPattern } from "@effectively-once/pipeline/internal/src/pipe-filter/event-pattern/index";
export type { PipeEvent, PipeRunner, PipeRunnerOptions, PipeStats, PipeTarget, SqsSender, TargetContext, TargetResult } from "./types";
