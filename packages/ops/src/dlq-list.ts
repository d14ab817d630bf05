import { keyDeriver, keyExpressionOf } from "./business-key";
import { withDlqScan } from "./dlq-scan";
import { duration, plural, readableDetail, table, truncate } from "./format";
import type { DlqEntry, OpsContext } from "./types";

export interface DlqFilter {
  /** Only messages with this reason (`retries-exhausted` = no reason attribute). */
  readonly reason?: string;
  /** Only messages for this business key. */
  readonly key?: string;
}

export interface DlqListOptions extends DlqFilter {
  /** Scan at most this many messages (default 100). */
  readonly max?: number;
  /** JSONata business key expression for messages without a businessKey attribute. */
  readonly keyExpression?: string;
  readonly holdSeconds?: number;
}

export interface DlqListResult {
  readonly queueUrl: string;
  /** Matching messages, oldest first. */
  readonly messages: readonly DlqEntry[];
  /** Messages the scan saw (matching or not). */
  readonly scanned: number;
  readonly truncated: boolean;
  readonly byReason: Readonly<Record<string, number>>;
}

export const DEFAULT_MAX_MESSAGES = 100;

export function matches(entry: DlqEntry, filter: DlqFilter): boolean {
  return (filter.reason === undefined || entry.reason === filter.reason) && (filter.key === undefined || entry.businessKey === filter.key);
}

/** Lists DLQ messages without consuming them (see `withDlqScan` for how). */
export async function listDlq(ctx: OpsContext, options: DlqListOptions = {}): Promise<DlqListResult> {
  const deriveKey = keyDeriver(keyExpressionOf(ctx.outputs, options.keyExpression));
  return withDlqScan(ctx, { max: options.max ?? DEFAULT_MAX_MESSAGES, holdSeconds: options.holdSeconds, deriveKey }, async (scan) => {
    const messages = scan.held.map((m) => m.entry).filter((entry) => matches(entry, options));
    const byReason: Record<string, number> = {};
    for (const entry of messages) byReason[entry.reason] = (byReason[entry.reason] ?? 0) + 1;
    return { queueUrl: scan.queueUrl, messages, scanned: scan.held.length, truncated: scan.truncated, byReason };
  });
}

/** The human view: one line per message, oldest first. */
export function renderDlqList(result: DlqListResult): string {
  const counts = Object.entries(result.byReason)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(", ");
  const head = `DLQ ${result.queueUrl}: ${plural(result.messages.length, "message")}${counts ? ` (${counts})` : ""}${
    result.truncated ? `; stopped after ${result.scanned} (raise --max to see more)` : ""
  }`;
  if (result.messages.length === 0) return head;
  const rows = result.messages.map((m) => [
    m.ageMs === undefined ? "?" : duration(m.ageMs),
    m.reason,
    m.businessKey === undefined ? "-" : `${m.businessKey}${m.keySource === "body" ? " *" : ""}`,
    m.originalMessageId,
    truncate(m.detail ? readableDetail(m.detail) : m.reason === "retries-exhausted" ? "moved by the queue's redrive after maxReceiveCount receives" : "", 100),
  ]);
  const derived = result.messages.some((m) => m.keySource === "body") ? "\n* key evaluated from the body (the message carries no businessKey attribute)" : "";
  return `${head}\n${table(["AGE", "REASON", "BUSINESS KEY", "ORIGINAL MESSAGE ID", "DETAIL"], rows)}${derived}`;
}
