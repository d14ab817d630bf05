import type { InvocationRecord } from "./applications";

/** The wrapper's line ends every invocation with this message prefix (`invocation processed`, `invocation rejected: …`). */
const LINE_MESSAGE = /^invocation /;

/**
 * The invocation records among log lines of the function: the handler wrapper writes one JSON line per invocation
 * (Powertools Logger) with `messageId`, `businessKey`, `operation` and `outcome`; a batch invocation writes one
 * `invocation batch` line whose `records` hold those fields per record (a failed record has its own line). Other lines (the function's own
 * logging, Lambda's START/END/REPORT, a line from another Lambda log format) are skipped. On AWS the lines are the
 * function's log group's events (CloudWatch Logs `FilterLogEvents` with the pattern `"invocation "`); on the local
 * cloud, {@link collectInvocations} gathers them.
 */
export function parseInvocationLines(lines: Iterable<string>): InvocationRecord[] {
  const records: InvocationRecord[] = [];
  for (const line of lines) {
    const start = line.indexOf("{");
    if (start < 0) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.slice(start));
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null) continue;
    const f = parsed as Record<string, unknown>;
    if (typeof f.message !== "string" || !LINE_MESSAGE.test(f.message)) continue;
    for (const entry of Array.isArray(f.records) ? (f.records as unknown[]) : [f]) {
      const record = invocationRecord(entry);
      if (record) records.push(record);
    }
  }
  return records;
}

/** A line's (or a batch line's entry's) record, when it names all four fields as text. */
function invocationRecord(entry: unknown): InvocationRecord | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { messageId, businessKey, operation, outcome } = entry as Record<string, unknown>;
  if (typeof messageId === "string" && typeof businessKey === "string" && typeof operation === "string" && typeof outcome === "string") {
    return { messageId, businessKey, operation, outcome };
  }
  return undefined;
}

/** A sink for the local cloud's function output that keeps the invocation records. */
export interface InvocationCollector {
  /** Pass as `startLocalCloud({ functionLogs })`. */
  readonly functionLogs: (line: string) => void;
  /** The invocation records seen so far, oldest first. */
  records(): InvocationRecord[];
  /**
   * Resolves once no line has arrived for `quietMs` (at most `maxMs`): a worker's output reaches the host apart from
   * its result, so the last invocations' lines can trail the drain by a moment. Call it before `records()`.
   */
  settle(options?: { quietMs?: number; maxMs?: number }): Promise<void>;
}

/**
 * Collects the function's invocation records on the local cloud: `startLocalCloud({ stackFile, functionLogs:
 * collector.functionLogs })`, then `await collector.settle()` and `observe(target, sent, { invocations: collector.records() })`.
 */
export function collectInvocations(): InvocationCollector {
  const lines: string[] = [];
  let lastLineAt = Date.now();
  return {
    functionLogs: (line) => {
      lastLineAt = Date.now();
      if (line.includes('"invocation ')) lines.push(line);
    },
    records: () => parseInvocationLines(lines),
    settle: async ({ quietMs = 100, maxMs = 2_000 } = {}) => {
      const deadline = Date.now() + maxMs;
      while (Date.now() < deadline && Date.now() - lastLineAt < quietMs) await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
    },
  };
}
