/**
 * Local DynamoDB: dynalite (in memory, with transactions and TTL settings added) on a free port, a TTL sweeper (dynalite
 * expires nothing), and a fault proxy
 * that injects throttles/errors/latency and tags requests with the caller's identity.
 */
export { DynamoPlacement, startDynamo } from "./start-dynamo";
export type { LocalDynamo } from "./start-dynamo";
export { waitForTableActive } from "./tables";
export { startTtlSweeper } from "./ttl-sweeper";
export type { TtlSweeper } from "./ttl-sweeper";
export { ProxyVerdict, startDynamoFaultProxy } from "./fault-proxy";
export type { DynamoFaultProxy } from "./fault-proxy";
