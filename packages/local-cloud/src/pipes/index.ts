/** Local EventBridge Pipes runner: SQS source -> Step Functions target, with AWS Pipes semantics. */
export { createPipeRunner } from "./runner";
export { DrainTimeoutError } from "./errors";
export { PipeConfigError, EventPatternError } from "@effectively-once/contract/pipe-filter";
export type { SqsRecord } from "@effectively-once/contract/pipe-filter";
export { compileEventPattern, matchesEventPattern } from "@effectively-once/contract/pipe-filter";
export type { PipeEvent, PipeRunner, PipeRunnerOptions, PipeStats, PipeTarget, SqsSender, TargetContext, TargetResult } from "./types";
