import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Worker } from "node:worker_threads";
import type { LambdaLogs } from "./types";

/**
 * Lambda's application log levels, most detailed first (botocore's `ApplicationLogLevel`). With a function's
 * `logging_config` in JSON format and an application log level, Lambda sends only the lines of that level or a less
 * detailed one; a line whose `level`, or `timestamp`, is missing or invalid counts as INFO (Lambda developer guide,
 * "Log-level filtering").
 */
export const APPLICATION_LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"] as const;

/** RFC 3339's date-time: a full date, `T` (or, as RFC 3339 allows, a space), a full time, and `Z` or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The rank of a JSON line's `level` (case-insensitive, as the guide's `"debug"` example), INFO when it has none, or
 * when it has no valid RFC 3339 `timestamp`: "If you don't supply a valid timestamp, Lambda will assign the log the
 * level INFO" (same page). The key is the Node.js runtime's own, `timestamp` (the page: "follow the conventions of the
 * runtime you are using"), which Powertools Logger writes too.
 */
function rankOf(line: string): number {
  let parsed: { level?: unknown; timestamp?: unknown } | undefined;
  try {
    parsed = line.startsWith("{") ? (JSON.parse(line) as { level?: unknown; timestamp?: unknown }) : undefined;
  } catch {
    parsed = undefined;
  }
  const info = APPLICATION_LOG_LEVELS.indexOf("INFO");
  const timestamp = parsed?.timestamp;
  if (typeof timestamp !== "string" || !RFC3339.test(timestamp) || Number.isNaN(Date.parse(timestamp.replace(" ", "T")))) return info;
  const level = parsed?.level;
  const rank = typeof level === "string" ? APPLICATION_LOG_LEVELS.findIndex((l) => l === level.toUpperCase()) : -1;
  return rank >= 0 ? rank : info;
}

/**
 * `logs` behind Lambda's application log-level filter at `level` (none: no filter). Only JSON lines are filtered: a
 * plain line is what the Node.js runtime would have written as JSON at its console method's level, which a worker's
 * output does not tell. "inherit" and "silent" pass unchanged (nothing here reads their lines).
 */
export function levelFiltered(logs: LambdaLogs, level: string | undefined): LambdaLogs {
  if (level === undefined || typeof logs !== "function") return logs;
  const least = APPLICATION_LOG_LEVELS.findIndex((l) => l === level);
  return (line, meta) => (line.startsWith("{") && rankOf(line) < least ? undefined : logs(line, meta));
}

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
