/** Prints an execution history as a readable fixed-width table (for `--log` and debugging). */
import type { HistoryEvent } from "../types";

const MAX_DETAIL = 160;

function detailText(details: Record<string, unknown> | undefined): string {
  if (!details) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined) continue;
    parts.push(`${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  }
  const text = parts.join(" ");
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/**
 * Formats events as a table: id, previous id, elapsed ms since the first event, type, details.
 * Details are shortened to one line each.
 */
export function formatHistory(events: readonly HistoryEvent[]): string {
  if (events.length === 0) return "(no events recorded)";
  const start = events[0].timestamp;
  const rows = events.map((e) => [String(e.id), String(e.previousEventId), `+${e.timestamp - start}ms`, e.type, detailText(e.details)]);
  const header = ["ID", "PREV", "TIME", "TYPE", "DETAILS"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  widths[4] = 0;
  const line = (r: string[]) => r.map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c)).join("  ").trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}
