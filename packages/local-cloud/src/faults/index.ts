/**
 * Seeded, reproducible fault plans for the local cloud. The Lambda runner reads Lambda rules, the DynamoDB
 * fault proxy reads DynamoDB rules, and the Step Functions interpreter may read step-latency rules.
 */
export { createFaultPlan } from "./plan";
export { createRng } from "./rng";
export { describeDynamoRequest } from "./dynamo-request";
export { FaultTiming } from "./types";
export type { DynamoRequestInfo, DynamoRequestMatcher, FaultPlan, FaultPlanSpec, FaultReport, FaultRule, LambdaFaultDecision } from "./types";
