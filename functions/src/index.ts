/**
 * The Lambda side of the pipeline: what a team's downstream handler file imports. Turn a side effect into the
 * handler with {@link createPipelineHandler}; throw {@link PermanentError} or {@link ConflictError} (or a subclass)
 * to have a message quarantined instead of retried; use {@link EffectJournal} to stand in for a downstream that
 * honours idempotency keys. See functions/README.md.
 */
export { createPipelineHandler } from "./pipeline-handler";
export type { HandlerDependencies, HandlerInit, PipelineHandler, PipelineHandlerOptions } from "./pipeline-handler";
export type { Payload, PipelineEvent, SideEffect, SideEffectContext } from "./types";
export type { PipelineConfig } from "./config";
export type { Environment } from "./config";
export type { LogFields } from "./invocation-log";
export type { TruncatedResult } from "./result-bound";
export { createFateMetrics } from "./metrics";
export type { FateMetrics, OwnLine } from "./metrics";
export {
  ConfigurationError,
  ConflictError,
  DownstreamConflictError,
  DownstreamRefusedError,
  DownstreamStateError,
  PermanentError,
  PipelineFunctionError,
  ReservedNameError,
  ValidationError,
} from "./errors";
export { EffectJournal } from "./effect-journal";
export type { EffectAttributes, EffectJournalOptions, EffectReceipt, EffectRequest } from "./effect-journal";
export { idempotencyRecordId } from "./idempotency";
export { legacySecondLayerIds, SECOND_LAYER_IDS } from "@effectively-once/contract";
export type { SecondLayerIds } from "@effectively-once/contract";
export { effectKey } from "@effectively-once/contract";
export { readPipelineConfig } from "./config";
export { checkPayload } from "./payload-check";
