import type { FaultPlan } from "../faults";
import type { DynamoFaultProxy } from "../dynamodb";

/** Where a function's code is: the esbuild output folder, or the zip that cdktf's TerraformAsset made. */
export interface LambdaBundle {
  /** A folder holding the handler file (e.g. `index.js`). */
  dir?: string;
  /** `archive.zip` (unzipped into a temp folder, removed on stop()). */
  zipPath?: string;
}

/** One function, as the synthesized `aws_lambda_function` describes it. */
export interface LambdaFunctionConfig {
  name: string;
  /** `arn:aws:lambda:<region>:<account>:function:<name>` */
  arn: string;
  bundle: LambdaBundle;
  /** `<file>.<export>`, e.g. "index.handler" (default). */
  handler?: string;
  /** The resource's `environment.variables`. Reserved Lambda variables are rejected, as AWS does. */
  env?: Record<string, string>;
  /** Default 3, like Lambda. Fractions are accepted locally (AWS takes whole seconds) to keep tests fast. */
  timeoutSeconds?: number;
  /** Default 128. Also caps the worker's V8 heap (old generation) at this many MB. */
  memoryMb?: number;
  /** Reserved concurrency: more concurrent invocations get TooManyRequestsException (or wait, see onThrottle). */
  reservedConcurrency?: number;
  /**
   * `logging_config`'s `application_log_level` (JSON format only): JSON lines of a more detailed level never reach the
   * logs' consumer, as Lambda does not send them to CloudWatch Logs (log-sink.ts). None: every line is passed on.
   */
  applicationLogLevel?: string;
}

/** Console output of handlers: passed through, dropped, or handed to a function line by line. */
export type LambdaLogs =
  | "inherit"
  | "silent"
  | ((line: string, meta: { functionName: string; environmentId: string; stream: "stdout" | "stderr" }) => void);

export interface LambdaRunnerOptions {
  functions: LambdaFunctionConfig[];
  /** Emulator endpoints handed to the code as AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_SQS. */
  endpoints?: { dynamodb?: string; sqs?: string };
  /**
   * When given, each execution environment gets its own DynamoDB endpoint on this proxy (`/w/<environment id>`)
   * instead of `endpoints.dynamodb`, so the runner can tell which invocation sent a request. Required by fault
   * rules that name a side effect.
   */
  dynamodbProxy?: DynamoFaultProxy;
  faults?: FaultPlan;
  /** Default "inherit". */
  logs?: LambdaLogs;
  /** Region of the reserved AWS_REGION variables (default: taken from the first ARN, else us-east-1). */
  region?: string;
  /** What happens above reserved concurrency: "throw" TooManyRequestsException like Lambda (default) or "queue". */
  onThrottle?: "throw" | "queue";
  /**
   * Host guard for functions without reserved concurrency: at most this many environments at once per function
   * (default 10); further invocations wait. Not an AWS behaviour: it keeps a 2-core machine usable.
   */
  maxEnvironmentsPerFunction?: number;
}

export interface InvokeRequest {
  /** Name, full ARN, partial ARN (`<account>:function:<name>`) or `name:qualifier`. */
  FunctionName: string;
  /** JSON text; empty or missing = `{}`. */
  Payload: string;
  /** "RequestResponse" (default), "Event" (202, runs in the background) or "DryRun" (204). */
  InvocationType?: string;
  /** Only `$LATEST` exists locally. */
  Qualifier?: string;
}

export interface InvokeResponse {
  StatusCode: number;
  Payload: string;
  FunctionError?: string;
  ExecutedVersion?: string;
}

/** The one call other parts of the local cloud use (the Step Functions Lambda integration, tools). */
type LambdaInvoker = (req: InvokeRequest, signal?: AbortSignal) => Promise<InvokeResponse>;

export interface FunctionStats {
  invocations: number;
  coldStarts: number;
  /** Invocations that returned a function error (including timeouts and crashes). */
  errors: number;
  timeouts: number;
  /** Environments that died during an invocation (exit, uncaught error, injected crash, out of memory). */
  crashes: number;
  throttles: number;
  /** Invocations running now. */
  active: number;
  /** Warm environments waiting for work. */
  idle: number;
  /**
   * Milliseconds the invocations ran in a ready environment, added up (Lambda's REPORT `Duration`, init excluded):
   * ÷ `invocations` is the mean duration an invocation of this stack takes on this machine.
   */
  durationMs: number;
}

export interface LambdaRunnerStats {
  functions: Record<string, FunctionStats>;
}

export interface LambdaRunner {
  invoke: LambdaInvoker;
  stats(): LambdaRunnerStats;
  /** Ends every environment and removes unzipped bundles. */
  stop(): Promise<void>;
}

/** The error object Lambda's Node.js runtime reports (the Payload of a failed invocation). */
export interface LambdaErrorPayload {
  errorType: string;
  errorMessage: string;
  trace?: string[];
}
