/**
 * What verify can see of a deployed stack without touching its data path: the workflow's execution logs (the probe
 * stack logs each execution's input, as the pipe sent it, and its end), read with FilterLogEvents; and waits that
 * poll them on the run's clock.
 */
import { FilterLogEventsCommand, type FilteredLogEvent } from "@aws-sdk/client-cloudwatch-logs";
import type { ProbeContext } from "./types";

/** One SQS record as the state machine received it (the pipe's JSON). */
export interface ReceivedRecord {
  readonly messageId: string;
  readonly body: string;
  readonly attributes?: Record<string, string>;
  readonly messageAttributes?: Record<string, Record<string, unknown>>;
  readonly [member: string]: unknown;
}

/** One execution that received a given message. */
export interface Delivery {
  readonly executionArn: string;
  /** When the execution started (the log event's time, epoch ms). */
  readonly startedAt: number;
  /** The execution's input, exactly as logged. */
  readonly inputText: string;
  readonly records: readonly ReceivedRecord[];
  /** The record of the message looked for. */
  readonly record: ReceivedRecord;
  /** The execution's end, once logged: its type, time, and whether the message was handed back to the pipe. */
  readonly end?: { readonly type: string; readonly at: number; readonly handedBack: boolean };
}

interface ExecutionEvent {
  readonly type: string;
  readonly execution_arn: string;
  readonly event_timestamp: string;
  readonly details?: { input?: string; output?: string };
}

async function filter(context: ProbeContext, term: string): Promise<FilteredLogEvent[]> {
  const events: FilteredLogEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await context.clients.logs.send(new FilterLogEventsCommand({ logGroupName: context.stack.names.workflowLogGroup, filterPattern: `"${term}"`, nextToken }));
    events.push(...(page.events ?? []));
    nextToken = page.nextToken;
  } while (nextToken);
  return events;
}

const parse = (e: FilteredLogEvent): ExecutionEvent | undefined => {
  try {
    return JSON.parse(e.message ?? "") as ExecutionEvent;
  } catch {
    return undefined;
  }
};

/** A record picker: by message id, unless the caller knows the record another way (a moved message's new id). */
type Pick = (record: ReceivedRecord) => boolean;

/**
 * Every execution whose logged input holds `term` and a record `pick` chooses (default: the message whose id is
 * `term`), oldest first, with its end when logged.
 */
async function deliveriesOf(context: ProbeContext, term: string, pick: Pick = (r) => r.messageId === term): Promise<Delivery[]> {
  const started = (await filter(context, term)).map(parse).filter((e): e is ExecutionEvent => e?.type === "ExecutionStarted" && typeof e.details?.input === "string");
  const out: Delivery[] = [];
  for (const e of started) {
    const records = JSON.parse(e.details!.input!) as ReceivedRecord[];
    const record = Array.isArray(records) ? records.find((r) => r !== null && typeof r === "object" && pick(r)) : undefined;
    if (!record) continue;
    const end = (await filter(context, e.execution_arn)).map(parse).find((x) => x !== undefined && x.execution_arn === e.execution_arn && x.type !== "ExecutionStarted" && /^Execution/.test(x.type));
    const failures = end?.details?.output ? ((JSON.parse(end.details.output) as { batchItemFailures?: { itemIdentifier: string }[] }).batchItemFailures ?? []) : [];
    out.push({
      executionArn: e.execution_arn,
      startedAt: Number(e.event_timestamp),
      inputText: e.details!.input!,
      records,
      record,
      end: end && { type: end.type, at: Number(end.event_timestamp), handedBack: end.type !== "ExecutionSucceeded" || failures.some((f) => f.itemIdentifier === record.messageId) },
    });
  }
  return out.sort((a, b) => a.startedAt - b.startedAt);
}

/** Polls `check` on the run's clock until it gives a value, or fails naming `what` after `timeoutMs`. */
export async function waitUntil<T>(context: ProbeContext, what: string, timeoutMs: number, check: () => Promise<T | undefined>, intervalMs = 2_000): Promise<T> {
  const deadline = context.clock.now() + timeoutMs;
  for (;;) {
    context.signal?.throwIfAborted();
    const value = await check();
    if (value !== undefined) return value;
    if (context.clock.now() >= deadline) throw new Error(`gave up waiting ${Math.round(timeoutMs / 1000)} s for ${what}`);
    await context.clock.sleep(intervalMs);
  }
}

/** The `n`th delivery of a message once its execution ended (n = 1 for the first). */
export function nthDelivery(context: ProbeContext, term: string, n: number, timeoutMs: number, options: { pick?: Pick; intervalMs?: number } = {}): Promise<Delivery> {
  const what = `delivery ${n} of message ${term} in ${context.stack.names.workflowLogGroup}`;
  return waitUntil(
    context,
    what,
    timeoutMs,
    async () => {
      const found = (await deliveriesOf(context, term, options.pick)).filter((d) => d.end);
      return found.length >= n ? found[n - 1] : undefined;
    },
    options.intervalMs,
  );
}

/** The delivery that acknowledged a message (its execution ended without handing it back), once there is one. */
export function acknowledgedDelivery(context: ProbeContext, term: string, timeoutMs: number, options: { intervalMs?: number } = {}): Promise<Delivery> {
  return waitUntil(
    context,
    `the delivery of message ${term} that acknowledged it, in ${context.stack.names.workflowLogGroup}`,
    timeoutMs,
    async () => (await deliveriesOf(context, term)).find((d) => d.end !== undefined && !d.end.handedBack),
    options.intervalMs,
  );
}

/** Every delivery of a message whose execution ended so far, oldest first. */
export async function endedDeliveries(context: ProbeContext, term: string): Promise<Delivery[]> {
  return (await deliveriesOf(context, term)).filter((d) => d.end !== undefined);
}
