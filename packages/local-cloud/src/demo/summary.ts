import { formatTable, type DlqMessage, type Verification } from "../observe";
import type { ProgressCounts } from "./progress";

export interface DemoSummary {
  readonly text: string;
  /** True when no message was lost, none applied twice, and the DLQ holds exactly the expected reasons. */
  readonly ok: boolean;
}

function clip(text: string | undefined, width: number): string {
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ");
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** The end-of-run report of `npm start`: counts, the two invariants in words, and the DLQ with reasons. */
export function summarize(input: {
  verification: Verification;
  progress: ProgressCounts;
  dlq: readonly DlqMessage[];
  expectedQuarantine: Readonly<Record<string, number>>;
  elapsedMs: number;
}): DemoSummary {
  const { verification: v, progress, dlq, expectedQuarantine } = input;
  const reasons = [...new Set([...Object.keys(expectedQuarantine), ...Object.keys(v.quarantinedByReason)])].sort();
  const reasonMismatch = reasons.filter((r) => (v.quarantinedByReason[r] ?? 0) !== (expectedQuarantine[r] ?? 0));
  const rows: (string | number)[][] = [
    ["messages sent", v.sent, ""],
    ["unique business keys", v.uniqueKeys, ""],
    ["applied (one effect per key)", v.applied, ""],
    ["downstream calls", v.downstreamCalls, v.repeatedCalls ? `${v.repeatedCalls} answered from the downstream's idempotency key` : ""],
    ["acknowledged as duplicates", progress.duplicates, ""],
    ["retried (came back later)", progress.retried, ""],
    ...reasons.map((r) => [`quarantined: ${r}`, v.quarantinedByReason[r] ?? 0, `expected ${expectedQuarantine[r] ?? 0}`]),
    ["lost", v.lost.length, "must be 0"],
    ["double-applied", v.doubleApplied.length, "must be 0"],
    ...(v.outOfOrder.length > 0 ? [["applied out of group order (FIFO)", v.outOfOrder.length, "must be 0"]] : []),
    ["send → effect latency p50 / p95", `${v.latencyMs.p50} / ${v.latencyMs.p95} ms`, ""],
    ["elapsed", `${(input.elapsedMs / 1000).toFixed(1)} s`, "both waves, each until the queue was empty (npm run bench measures throughput)"],
  ];
  const lines = [formatTable(rows, ["", "count", "note"], ["left", "right", "left"]), ""];
  const check = (ok: boolean, text: string) => lines.push(`${ok ? "✔" : "✘"} ${text}`);
  check(v.lost.length === 0, `${v.lost.length} lost: every message was applied once, acknowledged as a duplicate or quarantined with a reason${v.lost.length ? ` (lost: ${v.lost.join(", ")})` : ""}`);
  check(v.doubleApplied.length === 0, `${v.doubleApplied.length} double-applied: no key was applied twice${v.doubleApplied.length ? ` (${v.doubleApplied.join(", ")})` : ""}`);
  if (v.outOfOrder.length > 0) check(false, `${v.outOfOrder.length} applied before an earlier message of their group (${v.outOfOrder.join(", ")})`);
  check(reasonMismatch.length === 0, `the dead-letter queue holds what the stream asked for${reasonMismatch.length ? ` (different: ${reasonMismatch.join(", ")})` : ""}`);
  lines.push("", `Dead-letter queue (${dlq.length}):`);
  lines.push(
    dlq.length === 0
      ? "  (empty)"
      : formatTable(
          dlq.map((m) => [m.reason, m.businessKey ?? "-", m.originalMessageId ?? m.messageId, clip(m.detail, 60), clip(m.body, 40)]),
          ["reason", "business key", "original message", "detail", "body"],
          ["left", "left", "left", "left", "left"],
        ),
  );
  return { text: lines.join("\n"), ok: v.lost.length === 0 && v.doubleApplied.length === 0 && v.outOfOrder.length === 0 && reasonMismatch.length === 0 };
}
