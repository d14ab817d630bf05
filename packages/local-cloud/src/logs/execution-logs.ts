/**
 * The log events a state machine with a `logging_configuration` writes to its CloudWatch Logs group, as Step Functions
 * writes them for Express executions: one JSON message per event (`id`, `type`, `details`, `previous_event_id`,
 * `event_timestamp`, `execution_arn`), the input and output only with `include_execution_data`. The local cloud writes
 * the execution-level events (ExecutionStarted and the terminal event), not the per-state ones: level ALL writes
 * both, ERROR and FATAL only a failed, timed-out or aborted end.
 */
import type { ExecutionResult } from "../stepfunctions";

/** A state machine's logging configuration, resolved to its log group's name. */
export interface MachineLogging {
  readonly level: string;
  readonly includeExecutionData: boolean;
  readonly logGroupName: string;
}

/** One event as FilterLogEvents answers it. */
export interface LogEvent {
  readonly logStreamName: string;
  readonly timestamp: number;
  readonly message: string;
  readonly ingestionTime: number;
  readonly eventId: string;
}

/** The log group name of a destination ARN (`arn:<partition>:logs:<region>:<account>:log-group:<name>:*`). */
export function logGroupNameOf(destination: string): string | undefined {
  return /:log-group:([^:]+)(?::\*)?$/.exec(destination)?.[1];
}

const TERMINAL: ReadonlyMap<string, string> = new Map([
  ["SUCCEEDED", "ExecutionSucceeded"],
  ["FAILED", "ExecutionFailed"],
  ["TIMED_OUT", "ExecutionTimedOut"],
  ["ABORTED", "ExecutionAborted"],
]);

/** Every log group's events, in the order they were written. */
export class ExecutionLogs {
  private readonly groups = new Map<string, LogEvent[]>();
  private readonly streams = new Map<string, Set<string>>();
  private sequence = 0;

  /** Makes a stream exist (the stack's `aws_cloudwatch_log_stream`), so PutLogEvents may write to it. */
  ensureStream(group: string, stream: string): void {
    this.ensureGroup(group);
    if (!this.streams.has(group)) this.streams.set(group, new Set());
    this.streams.get(group)!.add(stream);
  }

  /**
   * PutLogEvents: appends the events to a stream that exists, else `undefined` (the caller answers
   * ResourceNotFoundException, as CloudWatch Logs does: PutLogEvents creates no group or stream).
   */
  put(group: string, stream: string, events: readonly { readonly timestamp: number; readonly message: string }[]): LogEvent[] | undefined {
    if (!this.streams.get(group)?.has(stream)) return undefined;
    const written = events.map((e) => {
      this.sequence += 1;
      return { logStreamName: stream, timestamp: e.timestamp, message: e.message, ingestionTime: Date.now(), eventId: String(this.sequence).padStart(56, "0") };
    });
    this.groups.get(group)!.push(...written);
    return written;
  }

  /** Makes a group exist (the stack's log groups), so a read of an empty one is not ResourceNotFound. */
  ensureGroup(name: string): void {
    if (!this.groups.has(name)) this.groups.set(name, []);
  }

  events(group: string): readonly LogEvent[] | undefined {
    return this.groups.get(group);
  }

  /** Writes one finished execution's events; `inputText` is the input as the caller sent it. */
  record(logging: MachineLogging, machineName: string, roleArn: string, inputText: string, run: ExecutionResult): void {
    if (logging.level === "OFF") return;
    this.ensureGroup(logging.logGroupName);
    const stream = `states/${machineName}/${new Date(run.startDate.getTime()).toISOString().slice(0, 10)}/${run.name}`;
    const data = logging.includeExecutionData;
    const write = (id: number, type: string, at: Date, details: Record<string, unknown>) => {
      const message = JSON.stringify({ id: String(id), type, details, previous_event_id: String(id - 1), event_timestamp: String(at.getTime()), execution_arn: run.executionArn, redrive_count: "0" });
      this.sequence += 1;
      this.groups.get(logging.logGroupName)!.push({ logStreamName: stream, timestamp: at.getTime(), message, ingestionTime: Date.now(), eventId: String(this.sequence).padStart(56, "0") });
    };
    const failed = run.status !== "SUCCEEDED";
    if (logging.level === "ALL") write(1, "ExecutionStarted", run.startDate, { ...(data ? { input: inputText } : {}), inputDetails: { truncated: false }, roleArn });
    if (logging.level !== "ALL" && !failed) return;
    const details = failed ? { error: run.error ?? "", cause: data ? (run.cause ?? "") : undefined } : { ...(data ? { output: JSON.stringify(run.output ?? null) } : {}), outputDetails: { truncated: false } };
    write(logging.level === "ALL" ? 2 : 1, TERMINAL.get(run.status) ?? "ExecutionFailed", run.stopDate, details);
  }
}
