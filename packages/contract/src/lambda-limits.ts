/**
 * What the Lambda API refuses in a function's configuration, with one owner: the construct's synth checks
 * (`function-rules`, `invariants`) and the local cloud's Lambda (which refuses what the API refuses) read these.
 * Their sources are cited where the construct re-exports them (`aws-limits.ts`).
 */

/** Variables the Lambda runtime defines; a function configuration may not set them. */
export const LAMBDA_RESERVED_VARIABLES = [
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

/** A variable's name: a letter, then at least one letter, digit or '_' (the model's EnvironmentVariableName). */
export const LAMBDA_VARIABLE_NAME = /^[a-zA-Z][a-zA-Z0-9_]+$/;

/**
 * A function's whole environment: at most 4,096 bytes, measured as Lambda quotes it when it refuses one ("String
 * measured: {…}"), the compact JSON object of every key and value. LocalStack's AWS-validated tests pin the edge: a
 * 4,096-byte object is accepted, 4,097 refused.
 */
export const LAMBDA_ENVIRONMENT_MAX_BYTES = 4096;

/** The environment's size as Lambda measures it: UTF-8 bytes of the compact JSON object, in the given order. */
export function lambdaEnvironmentBytes(variables: Iterable<readonly [string, string]>): number {
  // Pairs, not a plain object: an assignment `o[name] = value` with the name "__proto__" would set no key at all.
  const members = [...variables].map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return Buffer.byteLength(`{${members.join(",")}}`, "utf8");
}

/** A function's memory (MB) and timeout (s) as the Lambda API accepts them. */
export const LAMBDA_MEMORY_MB = { min: 128, max: 10240 } as const;
export const LAMBDA_TIMEOUT_SECONDS = { min: 1, max: 900 } as const;
