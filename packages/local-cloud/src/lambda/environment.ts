import { LAMBDA_ENVIRONMENT_MAX_BYTES, LAMBDA_RESERVED_VARIABLES, LAMBDA_VARIABLE_NAME, lambdaEnvironmentBytes } from "@effectively-once/contract";
import { InvalidLambdaConfigError } from "./errors";

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

const RESERVED = new Set<string>(LAMBDA_RESERVED_VARIABLES);

/** Checks a function's own variables on entry, like the Lambda API does (the rules are the contract's, as the synth's). */
export function validateUserEnvironment(functionName: string, env: Record<string, string>): void {
  for (const [key, value] of Object.entries(env)) {
    if (RESERVED.has(key)) {
      throw new InvalidLambdaConfigError(
        `functions[${functionName}].env.${key} is reserved by Lambda; remove it (Lambda sets it itself)`,
      );
    }
    if (!LAMBDA_VARIABLE_NAME.test(key)) {
      throw new InvalidLambdaConfigError(
        `functions[${functionName}].env has an invalid name "${key}": use letters, digits and _ and start with a letter`,
      );
    }
    if (typeof value !== "string") {
      throw new InvalidLambdaConfigError(`functions[${functionName}].env.${key} must be a string, got ${typeof value}`);
    }
  }
  const size = lambdaEnvironmentBytes(Object.entries(env));
  if (size > LAMBDA_ENVIRONMENT_MAX_BYTES) {
    throw new InvalidLambdaConfigError(
      `functions[${functionName}].env is ${size} bytes as Lambda measures it (the compact JSON of every variable), over Lambda's ` +
        `${LAMBDA_ENVIRONMENT_MAX_BYTES}; Lambda refuses such a function: trim it by ${size - LAMBDA_ENVIRONMENT_MAX_BYTES} bytes`,
    );
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
