/**
 * The local CloudWatch Logs endpoint: AWS's JSON 1.1 protocol (`X-Amz-Target: Logs_20140328.<Action>`), answering
 * FilterLogEvents over the state machines' execution logs (execution-logs.ts), so a client reads them as it reads a
 * deployed stack's. Filter patterns: terms (quoted or bare), all of which an event must contain; AWS's JSON and
 * space-delimited patterns are refused by name. PutLogEvents writes to a stream the stack declares (the workflow's
 * fate metrics), and hands the events to `onPut` (the local cloud reads their EMF into its metric store, as CloudWatch
 * Logs extracts EMF from PutLogEvents). Binds 127.0.0.1 on a free port.
 */
import { startJsonService } from "../json-protocol/server";
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

interface PutRequest {
  logGroupName?: string;
  logStreamName?: string;
  logEvents?: { timestamp?: number; message?: string }[];
}

/**
 * PutLogEvents as CloudWatch Logs' model and documentation state it: the three members required, 1 to 10,000 events,
 * each a timestamp and a non-empty message, in chronological order; the group and stream must exist.
 */
function putLogEvents(logs: ExecutionLogs, request: PutRequest, onPut: ((events: readonly LogEvent[]) => void) | undefined): Record<string, never> {
  for (const member of ["logGroupName", "logStreamName", "logEvents"] as const) {
    if (request[member] === undefined) throw new LogsApiError("InvalidParameterException", `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`);
  }
  const events = request.logEvents!;
  if (!Array.isArray(events) || events.length < 1 || events.length > PAGE) throw new LogsApiError("InvalidParameterException", "logEvents must hold 1 to 10000 events");
  for (const e of events) {
    if (typeof e.timestamp !== "number" || typeof e.message !== "string" || e.message.length === 0) throw new LogsApiError("InvalidParameterException", "every log event needs a timestamp and a non-empty message");
  }
  if (events.some((e, i) => i > 0 && e.timestamp! < events[i - 1].timestamp!)) throw new LogsApiError("InvalidParameterException", "Log events in a single PutLogEvents request must be in chronological order.");
  const written = logs.put(request.logGroupName!, request.logStreamName!, events as { timestamp: number; message: string }[]);
  if (!written) throw new LogsApiError("ResourceNotFoundException", "The specified log stream does not exist.");
  onPut?.(written);
  return {};
}

/** A running local CloudWatch Logs endpoint. */
export interface LogsEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Starts the endpoint over `logs` on 127.0.0.1, on a free port. */
export async function startLogsEndpoint(logs: ExecutionLogs, onPut?: (events: readonly LogEvent[]) => void): Promise<LogsEndpoint> {
  const { endpoint, stop } = await startJsonService({
    contentType: "application/x-amz-json-1.1",
    handle: (target, body) => {
      if (target === `${TARGET_PREFIX}FilterLogEvents`) return filterLogEvents(logs, body() as FilterRequest);
      if (target === `${TARGET_PREFIX}PutLogEvents`) return putLogEvents(logs, body() as PutRequest, onPut);
      throw new LogsApiError("UnknownOperationException", `The local CloudWatch Logs endpoint answers ${TARGET_PREFIX}FilterLogEvents and PutLogEvents; got '${target}'`);
    },
    errorOf: (error) => (error instanceof LogsApiError ? { code: error.code, status: 400 } : { code: "ServiceUnavailableException", status: 500 }),
  });
  return { endpoint, stop };
}
