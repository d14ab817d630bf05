/**
 * How props become the deployed settings, without synthesizing: the resolved props (defaults included), the synth-time
 * rules, the state machine's parameters and the function's environment. For tools that model a stack (the
 * simulation, the plan review); a stack file needs only the main entry.
 */
export { LOG_DELIVERY_ACTIONS, XRAY_ACTIONS } from "./constructs/iam";
export { assertPipelineInvariants } from "./constructs/invariants";
export { DEFAULTS, functionSecondLayerEnvironment, resolveProps } from "./constructs/props";
export { definitionParams } from "./constructs/definition-params";
export type { DefinitionNames } from "./constructs/definition-params";
export { functionVariables } from "./constructs/function-variables";
export type { IdempotentPipelineProps, PipelineDomain, ResolvedPipelineProps } from "./constructs/props";
export { CLAIM_ATTEMPTS, worstRecordBudget } from "./constructs/timing";
