import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Worker } from "node:worker_threads";
import type { LambdaLogs } from "./types";

/** Worker options for the chosen log mode: "inherit" lets Node pipe the worker's output to the host's. */
export function workerStdioOptions(logs: LambdaLogs): { stdout: boolean; stderr: boolean } {
  return logs === "inherit" ? { stdout: false, stderr: false } : { stdout: true, stderr: true };
}

/** Drains (silent) or forwards line by line (function) the output of one environment. */
export function attachLogs(worker: Worker, logs: LambdaLogs, meta: { functionName: string; environmentId: string }): void {
  if (logs === "inherit") return;
  const streams: Array<["stdout" | "stderr", Readable]> = [
    ["stdout", worker.stdout],
    ["stderr", worker.stderr],
  ];
  for (const [stream, readable] of streams) {
    if (logs === "silent") {
      readable.resume(); // unread output would pile up in memory
      continue;
    }
    createInterface({ input: readable, crlfDelay: Infinity }).on("line", (line) => {
      try {
        logs(line, { ...meta, stream });
      } catch {
        // A failing log consumer must not take the function down.
      }
    });
  }
}
