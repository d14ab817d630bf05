/**
 * The EventBridge Pipes filter matcher (`filterPatterns` over SQS records), as AWS documents it: for the local
 * cloud's pipe and for `pipeline-ops dlq redrive`, which must not redrive what the pipe would drop.
 */
export { EventPatternError, PipeConfigError } from "./errors";
export { compileEventPattern, matchesEventPattern } from "./event-pattern";
export { compileFilterCriteria } from "./filter";
export type { RecordFilter } from "./filter";
export { parseBody } from "./parse-body";
export { toSqsRecord } from "./sqs-record";
export type { FilterCriteria, SqsRecord } from "./types";
