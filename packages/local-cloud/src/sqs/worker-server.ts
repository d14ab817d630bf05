import { Worker } from "node:worker_threads";
import { SqsEmulatorStartError } from "./errors";

/** A server running in a worker thread that speaks the tiny listening/stop protocol below. */
interface WorkerServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Protocol: the worker posts `{ type: "listening", port }` or `{ type: "failed", error }`; on
 * `{ type: "stop" }` it closes its server and posts `{ type: "stopped" }`. Used for emulators that get their
 * own event loop (fauxqs here, dynalite in src/dynamodb). Errors of the worker are reported, not thrown.
 */
export async function startWorkerServer(
  file: string,
  options: { name: string; workerData?: unknown; startTimeoutMs?: number; stopTimeoutMs?: number },
): Promise<WorkerServer> {
  const worker = new Worker(file, { workerData: options.workerData, stdout: false, stderr: false });
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
  });

  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    stop(): Promise<void> {
      // Ask politely (the server closes its sockets), then make sure the thread is gone.
      stopping ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), options.stopTimeoutMs ?? 2_000);
        worker.on("message", (message: { type: string }) => {
          if (message.type === "stopped") {
            clearTimeout(timer);
            resolve();
          }
        });
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage({ type: "stop" });
      }).then(async () => {
        await worker.terminate();
      });
      return stopping;
    },
  };
}
