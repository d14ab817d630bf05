/**
 * The state machines' CloudWatch Logs, locally: what a stack's `logging_configuration` writes for each execution,
 * and an endpoint answering FilterLogEvents over it (the local cloud's `endpoints.logs`).
 */
export { ExecutionLogs, logGroupNameOf, type LogEvent, type MachineLogging } from "./execution-logs";
export { startLogsEndpoint, type LogsEndpoint } from "./server";
export { emfDatapoints, type EmfDatapoint } from "./emf";
