/**
 * How props become the deployed settings, without synthesizing and without a framework (neither cdktf nor CDK
 * Terrain loads): the resolved props (defaults included), the state machine's parameters, the function's environment,
 * the timing model and the IAM actions the construct grants. For tools that model a stack (the simulation, the
 * harness's function tests, the plan review); a stack file needs only the main entry.
 */
export { LOG_DELIVERY_ACTIONS, XRAY_ACTIONS } from "./constructs/iam";
export { DEFAULTS, functionSecondLayerEnvironment, resolveProps } from "./constructs/resolve-props";
export { definitionParams } from "./constructs/definition-params";
export type { DefinitionNames } from "./constructs/definition-params";
export { functionVariables } from "./constructs/function-variables";
export type { IdempotentPipelineProps, PipelineDomain, ResolvedPipelineProps } from "./constructs/props";
export { CLAIM_ATTEMPTS, worstExecution, worstRecordBudget } from "./constructs/timing";
export { stackConfigFromEnv } from "./app/config";
export type { StackConfig } from "./app/config";
