export { IdempotentPipeline } from "./idempotent-pipeline";
export { InvalidPropError, PipelineConfigError } from "./errors";
export { DEFAULTS, StateMachineLogLevel } from "./props";
export type { BusinessKeyProps, DownstreamFunctionProps, IdempotentPipelineProps, PolicyStatement, ResolvedPipelineProps } from "./props";
export { IDEMPOTENCY, LEDGER } from "./tables";
