/**
 * Local DynamoDB: dynalite (in memory) on a free port, a TTL sweeper (dynalite has no TTL), and a fault proxy
 * that injects throttles/errors/latency and tags requests with the caller's identity.
 */
export { DynamoPlacement, startDynamo } from "./start-dynamo";
export type { LocalDynamo, StartDynamoOptions } from "./start-dynamo";
export { waitForTableActive } from "./tables";
export { COUNTED_OPERATIONS } from "./request-counter";
export { startTtlSweeper } from "./ttl-sweeper";
export type { SweepResult, TtlSweeper, TtlSweeperOptions, TtlSweeperStats, TtlTable } from "./ttl-sweeper";
export { ProxyVerdict, startDynamoFaultProxy } from "./fault-proxy";
export type {
  DynamoFaultProxy,
  DynamoFaultProxyOptions,
  DynamoFaultProxyStats,
  ProxyHooks,
  ProxyRequestContext,
  ProxyResponseContext,
} from "./fault-proxy";
export { dynamoErrorResponse } from "./wire-errors";
export type { WireResponse } from "./wire-errors";
export { DynamoStartError, InvalidDynamoOptionError, LocalDynamoError } from "./errors";
