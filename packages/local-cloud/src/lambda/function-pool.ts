import { randomBytes, randomUUID } from "node:crypto";
import type { FaultPlan, LambdaFaultDecision } from "../faults";
import { exitPayload, injectedFailurePayload, MAX_RESPONSE_BYTES, responseTooLargePayload, timeoutPayload } from "./error-payloads";
import { LocalLambdaError, TooManyRequestsException } from "./errors";
import { ExecutionEnvironment } from "./execution-environment";
import type { InitFailure, Outcome, RunRequest } from "./execution-environment";
import type { FunctionStats, InvokeResponse, LambdaLogs } from "./types";

/** Everything a pool needs to know about its function, resolved by the runner. */
interface PoolConfig {
  name: string;
  arn: string;
  handler: string;
  taskRoot: string;
  timeoutSeconds: number;
  memoryMb: number;
  reservedConcurrency?: number;
  onThrottle: "throw" | "queue";
  maxEnvironments: number;
  logs: LambdaLogs;
  faults?: FaultPlan;
  /** The environment variables of a new environment (its id picks its DynamoDB endpoint). */
  environmentFor(environmentId: string, logStreamName: string): Record<string, string>;
  /** Every live environment by id, shared with the side-effect fault hooks. */
  registry: Map<string, ExecutionEnvironment>;
}

/**
 * The execution environments of one function: warm reuse (most recently used first), cold starts when none is
 * idle, a concurrency limit, and the Lambda fault rules that do not depend on DynamoDB requests.
 */
export class FunctionPool {
  private readonly idle: ExecutionEnvironment[] = [];
  private readonly waiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];
  private readonly counters = { invocations: 0, coldStarts: 0, errors: 0, timeouts: 0, crashes: 0, throttles: 0, durationMs: 0 };
  private active = 0;
  private environmentSeq = 0;
  private stopped = false;

  constructor(private readonly config: PoolConfig) {}

  /**
   * Runs one invocation. Takes a concurrency slot synchronously, so a burst of calls sees the limit at once.
   * @param queueWhenThrottled asynchronous invocations wait instead of being throttled (Lambda queues them).
   */
  invoke(payload: string, invokedFunctionArn: string, queueWhenThrottled = false): Promise<InvokeResponse> {
    const slot = this.acquireSlot(queueWhenThrottled);
    return slot.then(async () => {
      try {
        return await this.runInvocation(payload, invokedFunctionArn);
      } finally {
        this.releaseSlot();
      }
    });
  }

  stats(): FunctionStats {
    return { ...this.counters, active: this.active, idle: this.idle.filter((e) => e.alive).length };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new LocalLambdaError("the Lambda runner was stopped"));
    const environments = [...this.config.registry.values()].filter((e) => e.functionName === this.config.name);
    await Promise.all(environments.map((e) => e.dispose()));
    this.idle.length = 0;
  }

  private acquireSlot(queueWhenThrottled: boolean): Promise<void> {
    if (this.stopped) return Promise.reject(new LocalLambdaError("the Lambda runner was stopped"));
    const reserved = this.config.reservedConcurrency;
    const limit = reserved ?? this.config.maxEnvironments;
    if (this.active < limit) {
      this.active += 1;
      return Promise.resolve();
    }
    if (reserved !== undefined && this.config.onThrottle === "throw" && !queueWhenThrottled) {
      this.counters.throttles += 1;
      return Promise.reject(new TooManyRequestsException());
    }
    return new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private releaseSlot(): void {
    const next = this.waiters.shift();
    if (next) next.resolve(); // the slot passes straight to the next waiter
    else this.active -= 1;
  }

  private async runInvocation(payload: string, invokedFunctionArn: string): Promise<InvokeResponse> {
    this.counters.invocations += 1;
    const requestId = randomUUID();
    const environment = await this.takeEnvironment(requestId);
    if (!(environment instanceof ExecutionEnvironment)) return this.respond(environment);
    const request: RunRequest = {
      requestId,
      payload,
      timeoutSeconds: this.config.timeoutSeconds,
      invokedFunctionArn,
      traceId: traceId(),
      delayMs: 0,
    };
    // Lambda's REPORT Duration: the handler's run in a ready environment, its init (a cold start) not included.
    const started = performance.now();
    const outcome = await this.runWithFaults(environment, request);
    this.counters.durationMs += performance.now() - started;
    if (environment.alive && !(outcome.kind === "error" && outcome.discard)) {
      this.idle.push(environment);
    } else {
      this.forget(environment);
      if (environment.alive) await environment.dispose();
    }
    return this.respond(outcome);
  }

  /** fail/crash/hang rules without a side-effect matcher strike before the handler or after it returned. */
  private async runWithFaults(environment: ExecutionEnvironment, request: RunRequest): Promise<Outcome> {
    const plan = this.config.faults;
    const functionName = this.config.name;
    const before = plan?.decideLambda({ functionName, when: "before" });
    if (before?.action === "fail") return injectedFailure(before, false);
    request.delayMs = plan?.decideLambdaDelay(functionName)?.latencyMs ?? 0;
    if (before?.action === "crash" || before?.action === "hang") request.fault = before.action;
    const outcome = await environment.run(request);
    if (outcome.kind !== "success") return outcome;
    const after = plan?.decideLambda({ functionName, when: "after" });
    if (after?.action === "fail") return injectedFailure(after, false);
    if (after?.action === "crash") {
      await environment.dispose();
      return { kind: "error", error: exitPayload(request.requestId, { signal: "killed" }), discard: true, cause: "crash" };
    }
    if (after?.action === "hang") return environment.holdUntilTimeout(request);
    return outcome;
  }

  /** A warm environment if one is idle, else a cold start. Returns the failure outcome if init fails. */
  private async takeEnvironment(requestId: string): Promise<ExecutionEnvironment | Outcome> {
    for (let warm = this.idle.pop(); warm; warm = this.idle.pop()) {
      if (warm.alive) return warm;
      this.forget(warm);
    }
    this.counters.coldStarts += 1;
    this.environmentSeq += 1;
    const id = `${this.config.name}-${this.environmentSeq}`;
    const logStreamName = `${new Date().toISOString().slice(0, 10).replaceAll("-", "/")}/[$LATEST]${randomBytes(16).toString("hex")}`;
    const environment = new ExecutionEnvironment({
      id,
      functionName: this.config.name,
      taskRoot: this.config.taskRoot,
      handler: this.config.handler,
      env: this.config.environmentFor(id, logStreamName),
      memoryMb: this.config.memoryMb,
      logs: this.config.logs,
    });
    this.config.registry.set(id, environment);
    const failure = await environment.ready;
    if (failure === undefined) return environment;
    this.forget(environment);
    await environment.dispose();
    return initFailureOutcome(requestId, failure);
  }

  private forget(environment: ExecutionEnvironment): void {
    this.config.registry.delete(environment.id);
  }

  private respond(outcome: Outcome): InvokeResponse {
    if (outcome.kind === "success") {
      const size = Buffer.byteLength(outcome.payload);
      if (size <= MAX_RESPONSE_BYTES) return { StatusCode: 200, Payload: outcome.payload, ExecutedVersion: "$LATEST" };
      return this.respond({ kind: "error", error: responseTooLargePayload(size), discard: false, cause: "handler" });
    }
    this.counters.errors += 1;
    if (outcome.cause === "timeout") this.counters.timeouts += 1;
    if (outcome.cause === "crash") this.counters.crashes += 1;
    return {
      StatusCode: 200,
      FunctionError: "Unhandled",
      Payload: JSON.stringify(outcome.error),
      ExecutedVersion: "$LATEST",
    };
  }
}

function injectedFailure(decision: LambdaFaultDecision, discard: boolean): Outcome {
  return { kind: "error", error: injectedFailurePayload(decision), discard, cause: "injected" };
}

function initFailureOutcome(requestId: string, failure: InitFailure): Outcome {
  if ("error" in failure) return { kind: "error", error: failure.error, discard: true, cause: "init" };
  if ("timedOut" in failure) return { kind: "error", error: timeoutPayload(requestId, 10), discard: true, cause: "timeout" };
  return { kind: "error", error: exitPayload(requestId, { code: failure.exitCode }), discard: true, cause: "crash" };
}

/** An X-Ray trace header like Lambda puts in _X_AMZN_TRACE_ID (not sampled: nothing is sent anywhere). */
function traceId(): string {
  const epoch = Math.floor(Date.now() / 1000).toString(16);
  return `Root=1-${epoch}-${randomBytes(12).toString("hex")};Parent=${randomBytes(8).toString("hex")};Sampled=0`;
}
