/**
 * The local cloud (`@effectively-once/local-cloud`): runs a synthesized `cdk.tf.json` of the construct offline, with
 * no AWS account and no Docker (SQS, DynamoDB, the pipe, the state machine, the function's bundle).
 */
export { startLocalCloud } from "./cloud";
export type { CloudEvent, LocalCloud, LocalCloudStats, OutcomeEvent } from "./cloud";
export type { LocalCloudOptions } from "./cloud/types";
export type { SharedClock } from "./clock";
/** The local Step Functions endpoint (TestState) alone, and TestState in process: unit tests of state machines. */
export { startStepFunctionsEndpoint } from "./stepfunctions-api";
export type { StepFunctionsEndpoint, StepFunctionsEndpointOptions } from "./stepfunctions-api";
export { testState } from "./stepfunctions/test-state";
export type { MockErrorOutput, TestStateInput, TestStateMock, TestStateOptions, TestStateOutput } from "./stepfunctions/test-state";
export { watchInterrupts } from "./demo/interrupts";
export { runDemo } from "./demo/run-demo";
export { serve } from "./demo/serve";
export { TestStateApiError } from "./stepfunctions/test-state";
export type { EarlyVisibilityExpiry } from "./cloud";
export { MetricStore, readAlarm, evaluateMath, MetricMathError, AlarmDefinitionError } from "./alarms";
export type { LocalAlarms, AlarmState, AlarmTransition, AlarmDefinition, Datapoint, MetricId, Statistic } from "./alarms";
