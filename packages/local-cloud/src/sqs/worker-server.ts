import { Worker } from "node:worker_threads";
import { processWide } from "../process-wide";
import { SqsEmulatorStartError } from "./errors";

/** A server running in a worker thread that speaks the tiny listening/stop protocol below. */
interface WorkerServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  /** The thread serving it (a later start may get the same thread, with a fresh server). */
  threadId: number;
  stop(): Promise<void>;
}

/** Idle threads kept per worker file: enough for the two clouds a suite may run side by side. */
const MAX_IDLE_PER_FILE = 2;

/**
 * The idle threads of a worker file: one pool per process even where each test file gets its own module registry
 * (`processWide`), so the next suite of a test worker reuses a thread the last one stopped.
 */
function idleThreads(file: string): Worker[] {
  const pool = processWide("idle-emulator-threads", () => new Map<string, Worker[]>());
  let idle = pool.get(file);
  if (!idle) pool.set(file, (idle = []));
  return idle;
}

/**
 * Protocol: the worker posts `{ type: "listening", port }` or `{ type: "failed", error }`; on
 * `{ type: "stop" }` it closes its server and posts `{ type: "stopped" }`; on `{ type: "serve", workerData }` it starts
 * a fresh server as it did on its first start. Used for emulators that get their own event loop (fauxqs here,
 * dynalite in src/dynamodb). Errors of the worker are reported, not thrown.
 *
 * A stopped thread is kept, unreferenced, for the next start of the same file in this process: loading the emulator
 * (fauxqs and fastify: about 0.3 s of CPU; dynalite: 0.1 s) is most of a start, and suites start one after another.
 * It serves the next start from a fresh store, so nothing but loaded code carries over; a thread that did not stop
 * cleanly is terminated instead.
 */
export async function startWorkerServer(
  file: string,
  options: { name: string; workerData?: unknown; startTimeoutMs?: number; stopTimeoutMs?: number },
): Promise<WorkerServer> {
  const idle = idleThreads(file);
  const reused = idle.pop();
  if (reused) forgetListeners(reused);
  const worker = reused ?? new Worker(file, { workerData: options.workerData, stdout: false, stderr: false });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new SqsEmulatorStartError(`${options.name} did not start within ${options.startTimeoutMs ?? 10_000} ms`));
    }, options.startTimeoutMs ?? 10_000);
    worker.on("message", (message: { type: string; port?: number; error?: string }) => {
      if (message.type === "listening" && typeof message.port === "number") {
        clearTimeout(timer);
        resolve(message.port);
      } else if (message.type === "failed") {
        clearTimeout(timer);
        void worker.terminate();
        reject(new SqsEmulatorStartError(`${options.name} failed to start: ${message.error}`));
      }
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(new SqsEmulatorStartError(`${options.name} worker crashed while starting`, { cause: error }));
    });
    if (reused) {
      reused.ref();
      reused.postMessage({ type: "serve", workerData: options.workerData });
    }
  });

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    threadId: worker.threadId,
    stop(): Promise<void> {
      // Ask politely (the server closes its sockets); then keep the thread for the next start, or make sure it is gone.
      stopping ??= new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), options.stopTimeoutMs ?? 2_000);
        worker.on("message", (message: { type: string; error?: string }) => {
          if (message.type === "stopped") {
            clearTimeout(timer);
            resolve(message.error === undefined);
          }
        });
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve(false);
        });
        worker.postMessage({ type: "stop" });
      }).then(async (stoppedCleanly) => {
        if (stoppedCleanly && idle.length < MAX_IDLE_PER_FILE) return keepIdle(worker, idle);
        await worker.terminate();
      });
      return stopping;
    },
  };
}

/** Parks a stopped thread: no listener of its last server, and it no longer keeps the process alive. */
function keepIdle(worker: Worker, idle: Worker[]): void {
  forgetListeners(worker);
  // An idle thread that fails or ends is dropped (an "error" with no listener would throw in this thread).
  const drop = () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  };
  worker.on("error", drop);
  worker.once("exit", drop);
  worker.unref();
  idle.push(worker);
}

/** Removes the listeners added here (not all: Node's own "newListener" hooks start and stop the thread's port). */
function forgetListeners(worker: Worker): void {
  for (const event of ["message", "error", "exit"]) worker.removeAllListeners(event);
}
