import path from "node:path";
import { LAMBDA_MEMORY_MB, LAMBDA_TIMEOUT_SECONDS } from "@effectively-once/contract";
import { prepareBundle } from "./bundle";
import type { PreparedBundle } from "./bundle";
import { buildEnvironment, validateUserEnvironment } from "./environment";
import { APPLICATION_LOG_LEVELS, levelFiltered } from "./log-sink";
import {
  InvalidLambdaConfigError,
  InvalidParameterValueException,
  InvalidRequestContentException,
  RequestTooLargeException,
  ResourceNotFoundException,
} from "./errors";
import type { ExecutionEnvironment } from "./execution-environment";
import { parseFunctionArn, parseFunctionRef } from "./function-ref";
import { FunctionPool } from "./function-pool";
import { attachSideEffectFaults } from "./side-effect-faults";
import type { InvokeRequest, InvokeResponse, LambdaFunctionConfig, LambdaRunner, LambdaRunnerOptions } from "./types";

/** Synchronous invocation request limit (Lambda: 6 MB). */
const MAX_REQUEST_BYTES = 6_291_456;

/**
 * Runs the bundled handlers of the synthesized functions in worker threads, with Lambda's environment, context,
 * timeout, concurrency and error shapes. Prepares every bundle up front (unzipping archives), so a bad bundle
 * fails here rather than at the first invocation.
 */
export async function createLambdaRunner(options: LambdaRunnerOptions): Promise<LambdaRunner> {
  validateOptions(options);
  const firstArn = parseFunctionArn(options.functions[0]?.arn ?? "");
  const region = options.region ?? firstArn?.region ?? "us-east-1";
  const registry = new Map<string, ExecutionEnvironment>();
  const bundles: PreparedBundle[] = [];
  const pools = new Map<string, { config: LambdaFunctionConfig; pool: FunctionPool }>();
  const background = new Set<Promise<unknown>>();

  try {
    for (const fn of options.functions) {
      const bundle = await prepareBundle(fn.name, fn.bundle);
      bundles.push(bundle);
      const handler = fn.handler ?? "index.handler";
      const memoryMb = fn.memoryMb ?? 128;
      const pool = new FunctionPool({
        name: fn.name,
        arn: fn.arn,
        handler,
        taskRoot: bundle.taskRoot,
        timeoutSeconds: fn.timeoutSeconds ?? 3,
        memoryMb,
        reservedConcurrency: fn.reservedConcurrency,
        onThrottle: options.onThrottle ?? "throw",
        maxEnvironments: options.maxEnvironmentsPerFunction ?? 10,
        logs: levelFiltered(options.logs ?? "inherit", fn.applicationLogLevel),
        faults: options.faults,
        registry,
        environmentFor: (environmentId, logStreamName) =>
          buildEnvironment({
            functionName: fn.name,
            handler,
            memoryMb,
            region,
            taskRoot: bundle.taskRoot,
            runtimeDir: path.join(__dirname, "worker"),
            logStreamName,
            userEnv: fn.env ?? {},
            dynamodbEndpoint: options.dynamodbProxy?.endpointFor(environmentId) ?? options.endpoints?.dynamodb,
            sqsEndpoint: options.endpoints?.sqs,
          }),
      });
      pools.set(fn.name, { config: fn, pool });
    }
  } catch (error) {
    await Promise.all(bundles.map((b) => b.cleanup()));
    throw error;
  }

  const detachHooks =
    options.dynamodbProxy && options.faults?.hasSideEffectRules()
      ? attachSideEffectFaults(options.dynamodbProxy, options.faults, registry)
      : undefined;

  const account = firstArn?.account ?? "000000000000";
  const unknownArn = (ref: { name: string; qualifier?: string }) =>
    `arn:aws:lambda:${region}:${account}:function:${ref.name}${ref.qualifier ? `:${ref.qualifier}` : ""}`;

  async function invoke(req: InvokeRequest, signal?: AbortSignal): Promise<InvokeResponse> {
    signal?.throwIfAborted();
    const ref = parseFunctionRef(req.FunctionName, req.Qualifier, unknownArn);
    const entry = pools.get(ref.name);
    if (!entry) throw new ResourceNotFoundException(`Function not found: ${unknownArn(ref)}`);
    const payload = checkPayload(req.Payload);
    const invokedArn = ref.qualifier ? `${entry.config.arn}:${ref.qualifier}` : entry.config.arn;
    const type = req.InvocationType ?? "RequestResponse";
    if (type === "DryRun") return { StatusCode: 204, Payload: "" };
    if (type === "Event") {
      const run = entry.pool.invoke(payload, invokedArn, true).catch(() => undefined);
      background.add(run);
      void run.finally(() => background.delete(run));
      return { StatusCode: 202, Payload: "" };
    }
    if (type !== "RequestResponse") {
      throw new InvalidParameterValueException(
        `1 validation error detected: Value '${type}' at 'invocationType' failed to satisfy constraint: Member must satisfy enum value set: [Event, RequestResponse, DryRun]`,
      );
    }
    // An aborted caller stops waiting; the invocation itself runs to its end, as on Lambda.
    return abortable(entry.pool.invoke(payload, invokedArn), signal);
  }

  return {
    invoke,
    stats: () => ({ functions: Object.fromEntries([...pools].map(([name, { pool }]) => [name, pool.stats()])) }),
    async stop(): Promise<void> {
      detachHooks?.();
      await Promise.all([...pools.values()].map(({ pool }) => pool.stop()));
      await Promise.allSettled([...background]);
      await Promise.all(bundles.map((b) => b.cleanup()));
    },
  };
}

function checkPayload(raw: string | undefined): string {
  const payload = raw === undefined || raw === "" ? "{}" : raw;
  const size = Buffer.byteLength(payload);
  if (size > MAX_REQUEST_BYTES) {
    throw new RequestTooLargeException(`Request must be smaller than ${MAX_REQUEST_BYTES} bytes for the InvokeFunction operation`);
  }
  try {
    JSON.parse(payload);
  } catch (error) {
    throw new InvalidRequestContentException("Could not parse request body into json: Could not parse payload into json", {
      cause: error,
    });
  }
  return payload;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function validateOptions(options: LambdaRunnerOptions): void {
  if (!options || !Array.isArray(options.functions)) {
    throw new InvalidLambdaConfigError("functions must be an array of { name, arn, bundle, ... }");
  }
  const names = new Set<string>();
  options.functions.forEach((fn, i) => {
    const at = `functions[${i}]`;
    if (!fn?.name || !/^[a-zA-Z0-9-_]{1,64}$/.test(fn.name)) {
      throw new InvalidLambdaConfigError(`${at}.name must be 1-64 letters, digits, - or _`);
    }
    if (names.has(fn.name)) throw new InvalidLambdaConfigError(`${at}.name "${fn.name}" is used twice`);
    names.add(fn.name);
    const arn = parseFunctionArn(fn.arn ?? "");
    if (!arn || arn.name !== fn.name || arn.qualifier !== undefined) {
      throw new InvalidLambdaConfigError(`${at}.arn must be arn:aws:lambda:<region>:<12-digit account>:function:${fn.name}`);
    }
    // Fractions of a second are allowed here (tests time functions out quickly); Lambda's maximum is not exceeded.
    if (fn.timeoutSeconds !== undefined && !(fn.timeoutSeconds > 0 && fn.timeoutSeconds <= LAMBDA_TIMEOUT_SECONDS.max)) {
      throw new InvalidLambdaConfigError(`${at}.timeoutSeconds must be above 0 and at most ${LAMBDA_TIMEOUT_SECONDS.max}`);
    }
    if (fn.memoryMb !== undefined && !(Number.isInteger(fn.memoryMb) && fn.memoryMb >= LAMBDA_MEMORY_MB.min && fn.memoryMb <= LAMBDA_MEMORY_MB.max)) {
      throw new InvalidLambdaConfigError(`${at}.memoryMb must be a whole number from ${LAMBDA_MEMORY_MB.min} to ${LAMBDA_MEMORY_MB.max}`);
    }
    if (fn.reservedConcurrency !== undefined && !(Number.isInteger(fn.reservedConcurrency) && fn.reservedConcurrency >= 0)) {
      throw new InvalidLambdaConfigError(`${at}.reservedConcurrency must be a whole number ≥ 0`);
    }
    if (fn.applicationLogLevel !== undefined && !APPLICATION_LOG_LEVELS.some((l) => l === fn.applicationLogLevel)) {
      throw new InvalidLambdaConfigError(`${at}.applicationLogLevel is "${fn.applicationLogLevel}": use one of ${APPLICATION_LOG_LEVELS.join(", ")} (Lambda's application log levels)`);
    }
    validateUserEnvironment(fn.name, fn.env ?? {});
  });
  if (options.faults?.hasSideEffectRules() && !options.dynamodbProxy) {
    throw new InvalidLambdaConfigError(
      "faults has Lambda rules with a sideEffect, which need dynamodbProxy (startDynamoFaultProxy) to see the function's requests",
    );
  }
  if (options.maxEnvironmentsPerFunction !== undefined && !(options.maxEnvironmentsPerFunction >= 1)) {
    throw new InvalidLambdaConfigError("maxEnvironmentsPerFunction must be ≥ 1");
  }
}
