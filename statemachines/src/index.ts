/** The pipeline's state machine: `pipeline.asl.json` (JSONata) and the one renderer that fills its placeholders. */
export { PRODUCER_ATTRIBUTES } from "./expressions";
export { renderPipelineDefinition } from "./render";
export type { PipelineDefinitionParams } from "./render";
