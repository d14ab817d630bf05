/**
 * Seeded, reproducible fault plans for the local cloud. The Lambda runner reads Lambda rules, the DynamoDB
 * fault proxy reads DynamoDB rules, and the Step Functions interpreter may read step-latency rules.
 */
export { createFaultPlan } from "./plan";
export type { FaultPlanOptions } from "./plan";
export { createRng, hashString } from "./rng";
export type { Rng } from "./rng";
export { describeDynamoRequest, matchesDynamoRequest } from "./dynamo-request";
export { FaultPlanError, InvalidFaultPlanError } from "./errors";
export { DynamoFaultAction, DynamoThrottleError, FaultTiming, LambdaFaultAction } from "./types";
export type {
  AttributeScalar,
  DynamoFaultDecision,
  DynamoFaultRule,
  DynamoRequestInfo,
  DynamoRequestMatcher,
  FaultEvent,
  FaultGate,
  FaultPlan,
  FaultPlanSpec,
  FaultReport,
  FaultRule,
  LambdaFaultDecision,
  LambdaFaultPoint,
  LambdaFaultRule,
  StepFaultDecision,
  StepFaultPoint,
  StepFaultRule,
} from "./types";
