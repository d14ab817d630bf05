import {
  type BatchAnswer,
  type BatchRecordAnswer,
  BatchRecordOutcome,
  CONFLICT_ERROR_NAMES,
  failedAnswer,
  PERMANENT_ERROR_NAMES,
} from "@effectively-once/contract";

/**
 * A batch event's records, worked on concurrently with a bound, each answered on its own: a record's failure is its
 * own outcome and never reaches another record. The answer keeps the event's order, so the workflow matches it to
 * its claims by position (and checks the messageId).
 */

/** What one record's run gives back: whether the second layer answered (a duplicate), or the error it reported. */
export type RecordRun = { readonly ok: true; readonly duplicate: boolean } | { readonly ok: false; readonly error: unknown };

/** Runs `work` over `items`, at most `limit` at once; the results keep the items' order. `work` must not throw. */
export async function mapBounded<I, O>(items: readonly I[], limit: number, work: (item: I, index: number) => Promise<O>): Promise<O[]> {
  const results = new Array<O>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as I, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

const CONFLICTS: ReadonlySet<string> = new Set(CONFLICT_ERROR_NAMES);
const PERMANENT: ReadonlySet<string> = new Set(PERMANENT_ERROR_NAMES);

/**
 * A record's answer. A failure carries the name a single-record invocation would have reported (its `errorType`) and
 * is classified by the contract's default lists; the workflow matches the name against the construct's lists again,
 * so a batch and a single invocation end a record alike whatever names a stack adds.
 */
function answerOf(messageId: string, run: RecordRun): BatchRecordAnswer {
  if (run.ok) return { messageId, outcome: run.duplicate ? BatchRecordOutcome.Duplicate : BatchRecordOutcome.Applied };
  const error = run.error;
  const name = error instanceof Error ? error.name : "Error";
  const detail = error instanceof Error ? error.message : String(error);
  const outcome = CONFLICTS.has(name) ? BatchRecordOutcome.Conflict : PERMANENT.has(name) ? BatchRecordOutcome.Rejected : BatchRecordOutcome.Retry;
  return failedAnswer(messageId, outcome, name, detail);
}

/** The messageId to answer under: the record's own when it has a text one, else empty (the position still tells). */
function recordMessageId(record: unknown): string {
  const value = typeof record === "object" && record !== null ? (record as { messageId?: unknown }).messageId : undefined;
  return typeof value === "string" ? value : "";
}

/**
 * A batch record in the single event's form: its `body` text parsed into `payload` (JSON.parse, as the Lambda runtime
 * parses the single event the workflow serialized from `$parse(body)`). Anything else is left for validation to refuse.
 */
export function withPayload(record: unknown): unknown {
  if (typeof record !== "object" || record === null || Array.isArray(record)) return record;
  const { body, ...rest } = record as { body?: unknown; payload?: unknown };
  if (typeof body !== "string" || "payload" in rest) return record;
  try {
    return { ...rest, payload: JSON.parse(body) as unknown };
  } catch {
    // Not JSON: validation names the payload field.
    return { ...rest, payload: body };
  }
}

/** The batch's answer from its records' runs, in order. */
export function batchAnswer(records: readonly unknown[], runs: readonly RecordRun[]): BatchAnswer {
  return { outcomes: runs.map((run, index) => answerOf(recordMessageId(records[index]), run)) };
}
