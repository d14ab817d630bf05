export { IdempotentPipeline } from "./idempotent-pipeline";
export { InvalidPropError } from "./errors";
export type { IdempotentPipelineProps, PolicyStatement } from "./props";
