import path from "node:path";
import { Worker } from "node:worker_threads";
import { exitPayload, outOfMemoryPayload, timeoutPayload } from "./error-payloads";
import { attachLogs, workerStdioOptions } from "./log-sink";
import type { LambdaErrorPayload, LambdaLogs } from "./types";
import { sharedClock } from "../clock";

/** How one invocation ended. `discard` = the environment is gone (timeout, crash) and must not be reused. */
export type Outcome =
  | { kind: "success"; payload: string }
  | { kind: "error"; error: LambdaErrorPayload; discard: boolean; cause: "handler" | "timeout" | "crash" | "injected" | "init" };

/** Why init failed, before any invocation ran; the pool words it for the invocation that waited. */
export type InitFailure = { error: LambdaErrorPayload } | { exitCode: number } | { timedOut: true };

export interface RunRequest {
  requestId: string;
  payload: string;
  timeoutSeconds: number;
  invokedFunctionArn: string;
  traceId: string;
  /** Injected delay before the handler starts (counts against the timeout). */
  delayMs: number;
  /** Injected before the handler starts: exit the runtime, or never run the handler. */
  fault?: "crash" | "hang";
}

interface EnvironmentOptions {
  id: string;
  functionName: string;
  taskRoot: string;
  handler: string;
  env: Record<string, string>;
  memoryMb: number;
  logs: LambdaLogs;
}

interface Running {
  request: RunRequest;
  resolve(outcome: Outcome): void;
  timer?: NodeJS.Timeout;
  /** Error the runtime reported just before exiting (uncaught exception, unhandled rejection). */
  crash?: LambdaErrorPayload;
}

/** Lambda's init phase limit (on-demand). */
const INIT_TIMEOUT_MS = 10_000;

const RUNTIME_FILE = path.join(__dirname, "worker", "runtime.mjs");

/**
 * One execution environment: a worker thread with the function's own `process.env`, its code loaded once
 * (module scope survives between invocations, as in a warm Lambda), one invocation at a time.
 */
export class ExecutionEnvironment {
  readonly id: string;
  readonly functionName: string;
  /** Resolves undefined when the handler module is loaded, or with why it could not be. */
  readonly ready: Promise<InitFailure | undefined>;
  private readonly worker: Worker;
  private running?: Running;
  private dead = false;
  /**
   * When the last invocation's timeout falls due, on the monotonic clock (performance.now()). The handler sees the
   * shared clock (its Date, getRemainingTimeInMillis), but the timeout is the function's own time: a jump of the
   * shared clock while an invocation runs (a test moving time, verify waiting out a visibility timeout) must not
   * end it, as the caller's clock never ends an invocation on AWS.
   */
  private lastDeadline = 0;

  constructor(options: EnvironmentOptions) {
    this.id = options.id;
    this.functionName = options.functionName;
    this.worker = new Worker(RUNTIME_FILE, {
      // Silent logs are dropped inside the worker: piping each line to this thread only to throw it away cost a
      // cross-thread message and stream bookkeeping on both sides.
      // The environment reads the local cloud's controllable clock (Powertools expiry, the function's own items).
      workerData: { taskRoot: options.taskRoot, handler: options.handler, discardOutput: options.logs === "silent", clockBuffer: sharedClock().buffer },
      env: options.env,
      // The handler runs on plain Node, not under the host's loaders (tsx, jest): byte for byte as deployed.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
      ...workerStdioOptions(options.logs),
    });
    attachLogs(this.worker, options.logs, { functionName: options.functionName, environmentId: options.id });

    this.ready = new Promise<InitFailure | undefined>((resolve) => {
      const initTimer = setTimeout(() => {
        resolve({ timedOut: true });
        void this.dispose();
      }, INIT_TIMEOUT_MS);
      this.worker.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") {
          clearTimeout(initTimer);
          resolve(undefined);
        } else if (message.type === "init-error") {
          clearTimeout(initTimer);
          resolve({ error: message.error });
          void this.dispose();
        } else {
          this.onMessage(message);
        }
      });
      this.worker.on("exit", (code) => {
        clearTimeout(initTimer);
        resolve({ exitCode: code });
        this.onExit(code);
      });
    });
    this.worker.on("error", (error: Error & { code?: string }) => {
      // Emitted for errors the runtime could not report itself (e.g. out of memory); "exit" follows.
      if (!this.running) return;
      this.running.crash ??=
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? outOfMemoryPayload(this.running.request.requestId)
          : { errorType: error.name, errorMessage: error.message, trace: String(error.stack ?? "").split("\n") };
    });
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** The request id of the invocation running now, if any. */
  get currentRequestId(): string | undefined {
    return this.running?.request.requestId;
  }

  run(request: RunRequest): Promise<Outcome> {
    if (this.dead) return Promise.resolve(this.crashOutcome(request.requestId, { code: 1 }));
    return new Promise<Outcome>((resolve) => {
      this.running = { request, resolve };
      this.worker.postMessage({
        type: "invoke",
        requestId: request.requestId,
        payload: request.payload,
        timeoutMs: request.timeoutSeconds * 1000,
        invokedFunctionArn: request.invokedFunctionArn,
        traceId: request.traceId,
        delayMs: request.delayMs,
        fault: request.fault,
      });
    });
  }

  /**
   * For a hang injected after the handler finished: the caller gets no answer until the deadline, then the
   * timeout, and the environment is gone, as if the handler had never returned.
   */
  holdUntilTimeout(request: RunRequest): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      this.running = { request, resolve };
      this.armTimer(this.lastDeadline);
    });
  }

  /** Ends the running invocation with `outcome` and discards the environment (injected crash or failure). */
  async kill(outcome: Outcome): Promise<void> {
    this.settle(outcome);
    await this.dispose();
  }

  async dispose(): Promise<void> {
    this.dead = true;
    await this.worker.terminate();
  }

  private onMessage(message: WorkerMessage): void {
    const running = this.running;
    if (!running || !("requestId" in message) || message.requestId !== running.request.requestId) return;
    if (message.type === "started") {
      this.lastDeadline = performance.now() + running.request.timeoutSeconds * 1000;
      this.armTimer(this.lastDeadline);
    } else if (message.type === "done") {
      this.settle(
        message.ok
          ? { kind: "success", payload: message.payload }
          : { kind: "error", error: message.error, discard: false, cause: "handler" },
      );
    } else if (message.type === "crash") {
      running.crash = message.error;
    }
  }

  private armTimer(deadline: number): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    running.timer = setTimeout(() => {
      const { requestId, timeoutSeconds } = running.request;
      void this.kill({ kind: "error", error: timeoutPayload(requestId, timeoutSeconds), discard: true, cause: "timeout" });
    }, Math.max(0, deadline - performance.now()));
  }

  private onExit(code: number): void {
    this.dead = true;
    const running = this.running;
    if (!running) return;
    this.settle(
      running.crash
        ? { kind: "error", error: running.crash, discard: true, cause: "crash" }
        : this.crashOutcome(running.request.requestId, { code }),
    );
  }

  private crashOutcome(requestId: string, exit: { code: number }): Outcome {
    return { kind: "error", error: exitPayload(requestId, exit), discard: true, cause: "crash" };
  }

  private settle(outcome: Outcome): void {
    const running = this.running;
    if (!running) return;
    clearTimeout(running.timer);
    this.running = undefined;
    running.resolve(outcome);
  }
}

type WorkerMessage =
  | { type: "ready" }
  | { type: "init-error"; error: LambdaErrorPayload }
  | { type: "started"; requestId: string }
  | { type: "done"; requestId: string; ok: true; payload: string }
  | { type: "done"; requestId: string; ok: false; error: LambdaErrorPayload }
  | { type: "crash"; requestId?: string; error: LambdaErrorPayload };
