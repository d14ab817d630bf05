/**
 * The local cloud's parts one by one (the Step Functions interpreter, the pipe runner, the clock, fault draws, the TTL
 * sweeper): for a test world of your own, such as the deterministic simulation, which runs them on a virtual clock.
 */
export type { Clock } from "./clock/clock";
export { workflowTarget } from "./cloud/workflow-target";
export { startTtlSweeper } from "./dynamodb/ttl-sweeper";
export { createRng } from "./faults/rng";
export { exitPayload, timeoutPayload } from "./lambda/error-payloads";
export { nap } from "./pipes/clock";
export { RetryReason } from "./pipes/constants";
export { createPipeRunner } from "./pipes";
export type { PipeRunner } from "./pipes";
export { CompiledDefinition, createStateMachine, DefinitionError, formatHistory, MockConfigError, mockedStatesOf } from "./stepfunctions";
export type { DynamoDbSender, Integrations, LambdaInvoker, MockedStates, StateMachine } from "./stepfunctions";
export { compileMachine } from "./stepfunctions/machine-compile";
export { realClock } from "./clock/clock";
export { sharedClock } from "./clock";
export type { DynamoRequestInfo, DynamoRequestMatcher, FaultPlanSpec } from "./faults";
export { literalOutputs, loadStackFile, provisionStack } from "./provision";
export { createSqsClient, startSqs } from "./sqs";
export type { LocalSqs } from "./sqs";
export type { ExecutionResult, StateMachineOptions } from "./stepfunctions";
export { compileExpression } from "./stepfunctions/jsonata/expression";
export { installAllOld, installDynaliteFidelity, installParseCache } from "./dynamodb/dynalite-patches";
export { startDynamo } from "./dynamodb";
export { AttributeRegistry } from "./provision/attributes";
export { resolveString } from "./provision/references";
export type { StackFile } from "./provision/stack-file";
export { recordOutcomes } from "./cloud/outcomes";
export { emfDatapoints, type EmfDatapoint } from "./logs/emf";
