import path from "node:path";
import { sharedClock } from "../clock";
import { startWorkerServer } from "./worker-server";

/** A running SQS emulator. */
export interface LocalSqs {
  /** `http://127.0.0.1:<port>`: give it to every SQS client as `endpoint`. */
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts fauxqs (SQS JSON protocol) on 127.0.0.1 and a free port, in a worker thread: fauxqs is ESM-only
 * (jest cannot load it) and a thread gives it its own event loop. Queues are created through the SDK.
 */
export async function startSqs(options: { startTimeoutMs?: number } = {}): Promise<LocalSqs> {
  const server = await startWorkerServer(path.join(__dirname, "fauxqs-worker.mjs"), {
    name: "fauxqs (SQS emulator)",
    workerData: { clockBuffer: sharedClock().buffer },
    startTimeoutMs: options.startTimeoutMs,
  });
  return { endpoint: server.endpoint, port: server.port, stop: server.stop };
}
