import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "@aws-lambda-powertools/logger";
import type { Context } from "aws-lambda";
import { FUNCTION_ERROR_FIELD, InvocationErrorMessage, InvocationOutcome } from "@effectively-once/contract";

/**
 * One compact structured log line per invocation, written when the invocation ends.
 *
 * Why one line: at INFO the function used to write two Powertools lines per applied key, each repeating the Lambda
 * context (function ARN, name, memory: what the log group already says), ~1 KB in all; at a million messages that
 * was the largest item of the pipeline's own bill after DynamoDB. The line keeps what an operator searches by
 * (business key, operation, messageId, request id) and what happened (outcome, plus what the work noted, e.g. the
 * charge id). Failures keep the error with its stack, one line too.
 *
 * A batch invocation writes one summary line for all its records that ended without an error (`invocation batch`,
 * each record's key, operation, messageId, outcome and notes an entry of `records`), and a failed record still writes
 * its own WARN/ERROR line with the error: every record is named on exactly one line of its invocation. Why: ten
 * lines a batch repeated the request id, level, timestamp, service and the fate metrics' EMF directive ten times, the
 * largest log item of the pipeline's bill (docs/cost.md, "One invocation per batch").
 */

/** Event fields copied onto the line when they are strings, so even an invalid event is logged with its keys. */
const CORRELATION_FIELDS = ["businessKey", "operation", "messageId"] as const;

/** Fields of the invocation's log line. */
export type LogFields = Record<string, unknown>;

/** The summary line's message: the harness and operators find a batch's records by it (`"invocation batch"`). */
const BATCH_LINE_MESSAGE = "invocation batch";

/** Where a batch's records that end without an error put their line: entries of the one summary line. */
export interface BatchLines {
  readonly entries: LogFields[];
}

interface InvocationLog {
  /**
   * Runs one invocation's `work` and writes its line when it settles: INFO on success, WARN for a permanent error,
   * ERROR otherwise. The result or error passes through unchanged. Without `batch` the work is the whole invocation:
   * its error must leave the handler (Lambda then counts it in `Errors`), and its line says so (`functionError: true`).
   */
  run<T>(event: unknown, context: Context, work: () => Promise<T>, batch?: BatchLines): Promise<T>;
  /**
   * Opens a batch's summary: `work` runs each record with `run(…, batch)`, then the one INFO line is written with every
   * entry and `fields` (the fate metrics' EMF document). `fields` is read after `work`, so it may be filled by it.
   */
  runBatch<T>(context: Context, records: number, work: (batch: BatchLines) => Promise<T>, fields: () => LogFields): Promise<T>;
  /** Adds fields (e.g. `{ outcome: "applied", chargeId }`) to the line of the invocation running now; no-op outside one. */
  note(fields: LogFields): void;
  /** A copy of the line of the invocation running now (its keys, what was noted so far); empty outside one. */
  fields(): LogFields;
}

function correlationFields(event: unknown): LogFields {
  const fields: LogFields = {};
  if (typeof event !== "object" || event === null) return fields;
  for (const key of CORRELATION_FIELDS) {
    const value = (event as Record<string, unknown>)[key];
    if (typeof value === "string") fields[key] = value;
  }
  return fields;
}

/**
 * A rejection's line is WARN, but ERROR for one that threw when the logger is at ERROR: there no WARN line is written
 * (Powertools drops it, and so does Lambda's log-level filter: the construct sets both to function.logLevel), yet Lambda
 * counted the invocation in Errors and the function-errors alarm subtracts it only by this line. A batch record's never
 * counts (no FUNCTION_ERROR_FIELD), so it stays WARN.
 */
function rejectionLevel(logger: Logger, line: LogFields): "warn" | "error" {
  return line[FUNCTION_ERROR_FIELD] === true && logger.getLevelName() === "ERROR" ? "error" : "warn";
}

/**
 * One store for the process, whatever the number of logs, switched off while no invocation is open: an enabled
 * AsyncLocalStorage costs a step on every promise the process creates (Node 20), so one per handler made a process
 * that builds many handlers (the simulation builds one per run) slower with each. A line belongs to its log.
 */
const current = new AsyncLocalStorage<{ readonly log: InvocationLog; readonly line: LogFields }>();
let open = 0;

/**
 * `isPermanent` tells rejections from failures. Fields live in an AsyncLocalStorage, not in the logger's keys, so
 * invocations that overlap in one process (tests, a local cloud) never write each other's keys.
 */
export function createInvocationLog(logger: Logger, isPermanent: (error: unknown) => boolean): InvocationLog {
  let coldStart = true;

  const log: InvocationLog = {
    note(fields) {
      const store = current.getStore();
      if (store?.log === log) Object.assign(store.line, fields);
    },

    fields() {
      const store = current.getStore();
      return store?.log === log ? { ...store.line } : {};
    },

    async runBatch(context, records, work, fields) {
      const head: LogFields = { function_request_id: context.awsRequestId, cold_start: coldStart, batchRecords: records };
      coldStart = false;
      const batch: BatchLines = { entries: [] };
      const result = await work(batch);
      // Written when the batch ends: a crash or timeout before it loses the line (the records it names are then invoked
      // alone, and answered by their Powertools records: docs/operations.md, "Finding a key in the function's log").
      logger.info(BATCH_LINE_MESSAGE, { ...head, ...fields(), records: batch.entries });
      return result;
    },

    async run(event, context, work, batch) {
      // A batch's record: its entry carries only what differs between records (the request id is the summary's).
      const line: LogFields = batch ? correlationFields(event) : { function_request_id: context.awsRequestId, cold_start: coldStart, ...correlationFields(event) };
      if (!batch) coldStart = false;
      open++;
      try {
        const result = await current.run({ log, line }, work).finally(() => {
          if (--open === 0) current.disable();
        });
        line.outcome ??= InvocationOutcome.Processed;
        if (batch) batch.entries.push(line);
        else logger.info(`invocation ${String(line.outcome)}`, line);
        return result;
      } catch (error) {
        // The error leaves the invocation only without a batch (a batch answers it): only then does Lambda count it in
        // Errors. The function-errors alarm subtracts such a rejection, and adds a failure without the field: a batch
        // record's, which Lambda did not count (FUNCTION_ERROR_FIELD). Only the wrapper says it: a note's is dropped.
        if (batch) {
          line.function_request_id = context.awsRequestId;
          Reflect.deleteProperty(line, FUNCTION_ERROR_FIELD);
        } else line[FUNCTION_ERROR_FIELD] = true;
        if (isPermanent(error)) {
          line.outcome = InvocationOutcome.Rejected;
          logger[rejectionLevel(logger, line)](InvocationErrorMessage.Rejected, { ...line, error });
        } else {
          line.outcome = InvocationOutcome.Failed;
          logger.error(InvocationErrorMessage.Failed, { ...line, error });
        }
        throw error;
      }
    },
  };
  return log;
}
