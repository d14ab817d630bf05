/** The pipeline's state machine: `pipeline.asl.json` (JSONata) and the one renderer that fills its placeholders. */
export { renderPipelineDefinition } from "./render";
export type { PipelineDefinitionParams } from "./render";
/** `pipeline.asl.json` as written, placeholders unfilled: for code that reads the definition's own Retry blocks. */
export { default as PIPELINE_TEMPLATE } from "../pipeline.asl.json";
export { FATE_METRICS_TIMEOUT_SECONDS } from "./fate-count";
export type { FateMetricsTarget } from "./fate-count";
