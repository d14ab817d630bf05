export { IdempotentPipeline } from "./idempotent-pipeline";
export { EffectJournalTable, type EffectJournalTableProps } from "./effect-journal-table";
export { InvalidPropError, PipelineConfigError } from "./errors";
export { StateMachineLogLevel } from "./props";
export { LambdaRuntime } from "./lambda-runtime";
export type { DownstreamFunctionProps, PolicyStatement } from "./function-props";
export type { BusinessKeyProps, IdempotentPipelineProps, PipelineDomain } from "./props";
export type { FifoProps } from "./fifo-props";
