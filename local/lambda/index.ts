/**
 * Local Lambda: runs the deployed handler bundles in worker threads with Lambda's environment, context,
 * timeouts, concurrency, error shapes and fault injection.
 */
export { createLambdaRunner } from "./runner";
export type {
  FunctionStats,
  InvokeRequest,
  InvokeResponse,
  LambdaBundle,
  LambdaErrorPayload,
  LambdaFunctionConfig,
  LambdaInvoker,
  LambdaLogs,
  LambdaRunner,
  LambdaRunnerOptions,
  LambdaRunnerStats,
} from "./types";
export { RESERVED_VARIABLES } from "./environment";
export {
  InvalidLambdaConfigError,
  InvalidParameterValueException,
  InvalidRequestContentException,
  LambdaServiceError,
  LocalLambdaError,
  RequestTooLargeException,
  ResourceNotFoundException,
  TooManyRequestsException,
} from "./errors";
