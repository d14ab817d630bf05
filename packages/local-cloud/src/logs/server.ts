/**
 * The local CloudWatch Logs endpoint: AWS's JSON 1.1 protocol (`X-Amz-Target: Logs_20140328.<Action>`), answering
 * FilterLogEvents over the state machines' execution logs (execution-logs.ts), so a client reads them as it reads a
 * deployed stack's. Filter patterns: terms (quoted or bare), all of which an event must contain; AWS's JSON and
 * space-delimited patterns are refused by name. Binds 127.0.0.1 on a free port.
 */
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback } from "../json-protocol/loopback";
import type { ExecutionLogs, LogEvent } from "./execution-logs";

const TARGET_PREFIX = "Logs_20140328.";
/** FilterLogEvents' default and largest page (AWS's model: limit 1-10,000). */
const PAGE = 10_000;

class LogsApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

/** The terms of a filter pattern: `"a b" c` is the two terms `a b` and `c`. */
function patternTerms(pattern: string): string[] {
  if (/^\s*[{[]/.test(pattern)) throw new LogsApiError("InvalidParameterException", `The local endpoint matches term patterns only (quoted or bare terms, all required); got ${JSON.stringify(pattern)}`);
  return [...pattern.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2]));
}

interface FilterRequest {
  logGroupName?: string;
  logGroupIdentifier?: string;
  logStreamNames?: string[];
  logStreamNamePrefix?: string;
  startTime?: number;
  endTime?: number;
  filterPattern?: string;
  nextToken?: string;
  limit?: number;
}

function filterLogEvents(logs: ExecutionLogs, request: FilterRequest): { events: LogEvent[]; searchedLogStreams: never[]; nextToken?: string } {
  const group = request.logGroupName ?? request.logGroupIdentifier?.replace(/^arn:.*:log-group:([^:]+).*$/, "$1");
  if (!group) throw new LogsApiError("InvalidParameterException", "Either logGroupName or logGroupIdentifier is required.");
  const all = logs.events(group);
  if (!all) throw new LogsApiError("ResourceNotFoundException", "The specified log group does not exist.");
  const terms = patternTerms(request.filterPattern ?? "");
  const matching = all.filter(
    (e) =>
      (request.startTime === undefined || e.timestamp >= request.startTime) &&
      (request.endTime === undefined || e.timestamp <= request.endTime) &&
      (!request.logStreamNames || request.logStreamNames.includes(e.logStreamName)) &&
      (!request.logStreamNamePrefix || e.logStreamName.startsWith(request.logStreamNamePrefix)) &&
      terms.every((t) => e.message.includes(t)),
  );
  const from = request.nextToken ? Number(request.nextToken) : 0;
  const size = Math.min(request.limit ?? PAGE, PAGE);
  const events = matching.slice(from, from + size);
  return { events, searchedLogStreams: [], ...(from + size < matching.length ? { nextToken: String(from + size) } : {}) };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/x-amz-json-1.1", "content-length": Buffer.byteLength(text), "x-amzn-requestid": randomUUID() });
  res.end(text);
}

/** A running local CloudWatch Logs endpoint. */
export interface LogsEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Starts the endpoint over `logs` on 127.0.0.1, on a free port. */
export async function startLogsEndpoint(logs: ExecutionLogs): Promise<LogsEndpoint> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const target = String(req.headers["x-amz-target"] ?? "");
      try {
        if (target !== `${TARGET_PREFIX}FilterLogEvents`) throw new LogsApiError("UnknownOperationException", `The local CloudWatch Logs endpoint answers ${TARGET_PREFIX}FilterLogEvents; got '${target}'`);
        const text = Buffer.concat(chunks).toString("utf8");
        send(res, 200, filterLogEvents(logs, (text ? JSON.parse(text) : {}) as FilterRequest));
      } catch (error) {
        const code = error instanceof LogsApiError ? error.code : error instanceof SyntaxError ? "SerializationException" : "ServiceUnavailableException";
        send(res, code === "ServiceUnavailableException" ? 500 : 400, { __type: code, message: (error as Error).message });
      }
    });
  });
  const { endpoint, stop } = await listenOnLoopback(server);
  return { endpoint, stop };
}
