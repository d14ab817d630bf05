import { InvalidLambdaConfigError } from "./errors";

/** Variables Lambda sets itself; a function's configuration may not set them (AWS rejects it). */
const RESERVED_VARIABLES = [
  "_HANDLER",
  "_X_AMZN_TRACE_ID",
  "AWS_DEFAULT_REGION",
  "AWS_REGION",
  "AWS_EXECUTION_ENV",
  "AWS_LAMBDA_FUNCTION_NAME",
  "AWS_LAMBDA_FUNCTION_MEMORY_SIZE",
  "AWS_LAMBDA_FUNCTION_VERSION",
  "AWS_LAMBDA_INITIALIZATION_TYPE",
  "AWS_LAMBDA_LOG_GROUP_NAME",
  "AWS_LAMBDA_LOG_STREAM_NAME",
  "AWS_ACCESS_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_LAMBDA_RUNTIME_API",
  "LAMBDA_TASK_ROOT",
  "LAMBDA_RUNTIME_DIR",
] as const;

interface EnvironmentInput {
  functionName: string;
  handler: string;
  memoryMb: number;
  region: string;
  taskRoot: string;
  runtimeDir: string;
  logStreamName: string;
  userEnv: Record<string, string>;
  dynamodbEndpoint?: string;
  sqsEndpoint?: string;
}

/** Checks a function's own variables on entry, like the Lambda API does. */
export function validateUserEnvironment(functionName: string, env: Record<string, string>): void {
  const reserved: readonly string[] = RESERVED_VARIABLES;
  for (const [key, value] of Object.entries(env)) {
    if (reserved.includes(key)) {
      throw new InvalidLambdaConfigError(
        `functions[${functionName}].env.${key} is reserved by Lambda; remove it (Lambda sets it itself)`,
      );
    }
    if (!/^[a-zA-Z]([a-zA-Z0-9_])+$/.test(key)) {
      throw new InvalidLambdaConfigError(
        `functions[${functionName}].env has an invalid name "${key}": use letters, digits and _ and start with a letter`,
      );
    }
    if (typeof value !== "string") {
      throw new InvalidLambdaConfigError(`functions[${functionName}].env.${key} must be a string, got ${typeof value}`);
    }
  }
}

/**
 * The whole `process.env` of one execution environment: the function's variables, Lambda's reserved ones, fake
 * credentials and the emulator endpoints. Nothing is inherited from the host process except PATH.
 */
export function buildEnvironment(input: EnvironmentInput): Record<string, string> {
  const env: Record<string, string> = {
    ...input.userEnv,
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "en_US.UTF-8",
    // The worker shares the host's time zone (TZ is process-wide); set TZ=UTC on the host for full fidelity.
    TZ: ":UTC",
    _HANDLER: input.handler,
    AWS_REGION: input.region,
    AWS_DEFAULT_REGION: input.region,
    AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
    AWS_LAMBDA_FUNCTION_NAME: input.functionName,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(input.memoryMb),
    AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
    AWS_LAMBDA_INITIALIZATION_TYPE: "on-demand",
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${input.functionName}`,
    AWS_LAMBDA_LOG_STREAM_NAME: input.logStreamName,
    LAMBDA_TASK_ROOT: input.taskRoot,
    LAMBDA_RUNTIME_DIR: input.runtimeDir,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    AWS_SESSION_TOKEN: "local",
    // Lambda's nodejs22.x shows no such warning; on a Node 20 host the SDK would print one per environment.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
  // The local cloud must never reach real AWS: the emulator endpoints win over anything configured.
  if (input.dynamodbEndpoint) env.AWS_ENDPOINT_URL_DYNAMODB = input.dynamodbEndpoint;
  if (input.sqsEndpoint) env.AWS_ENDPOINT_URL_SQS = input.sqsEndpoint;
  return env;
}
