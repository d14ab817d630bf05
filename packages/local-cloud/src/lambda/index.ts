/**
 * Local Lambda: runs the deployed handler bundles in worker threads with Lambda's environment, context,
 * timeouts, concurrency, error shapes and fault injection.
 */
export { createLambdaRunner } from "./runner";
export type { LambdaLogs, LambdaRunner, LambdaRunnerStats } from "./types";
