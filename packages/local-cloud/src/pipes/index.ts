/** Local EventBridge Pipes runner: SQS source -> Step Functions target, with AWS Pipes semantics. */
export { createPipeRunner } from "./runner";
export type { PipeEvent, PipeRunner, PipeRunnerOptions, PipeStats, PipeTarget, SqsSender, TargetContext, TargetResult } from "./types";
