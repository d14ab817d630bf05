/** Text helpers shared by the commands' human output. */
import { safeCell } from "./safe-text";

/** The widest a table cell may be: longer values (keys up to 1,024 bytes, details) are cut; `--json` has them whole. */
export const MAX_CELL = 100;

/** "2025-03-01 12:00:03 UTC": operators compare these with logs, which are in UTC. */
export function humanDate(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "in 3 min", "2 h ago", "just now": the distance from `now`, in one rounded unit. */
export function relativeTime(epochMs: number, nowMs: number): string {
  const diff = epochMs - nowMs;
  const abs = Math.abs(diff);
  if (abs < 1_000) return "just now";
  const amount = duration(abs);
  return diff > 0 ? `in ${amount}` : `${amount} ago`;
}

/** "45 s", "3 min", "2 h", "4 d": a duration in the largest unit that keeps it readable. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** "2025-03-01 12:00:03 UTC (2 h ago)". */
export function dateWithRelative(epochMs: number, nowMs: number): string {
  return `${humanDate(epochMs)} (${relativeTime(epochMs, nowMs)})`;
}

/** Left-aligned columns; the last column is not padded. Cells are escaped (see safe-text.ts) and cut to MAX_CELL. */
export function table(header: readonly string[], rawRows: readonly (readonly string[])[]): string {
  const rows = rawRows.map((row) => row.map((cell) => truncate(safeCell(cell), MAX_CELL)));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n");
}

/** Label/value lines with aligned values. */
export function fields(pairs: readonly (readonly [string, string | undefined])[], indent = "  "): string {
  const shown = pairs.filter((p): p is readonly [string, string] => p[1] !== undefined).map(([label, value]) => [label, safeCell(value)] as const);
  const width = Math.max(0, ...shown.map(([label]) => label.length));
  return shown.map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`).join("\n");
}

/** Cuts a string to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  // Never cut a surrogate pair in half: that would print a lone surrogate.
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** "1 message", "3 messages". */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}

/**
 * The DLQ `detail` made readable: a Lambda error's JSON cause becomes its message, long hex hashes are shortened.
 * JSON output keeps the detail as stored.
 */
export function readableDetail(detail: string): string {
  let text = detail;
  const lambdaError = /^([\w.]+): (\{.*\})$/s.exec(text);
  if (lambdaError) {
    try {
      const cause = JSON.parse(lambdaError[2]) as { errorMessage?: unknown };
      if (typeof cause.errorMessage === "string") text = `${lambdaError[1]}: ${cause.errorMessage}`;
    } catch {
      // not JSON after all: keep it as it is
    }
  }
  return text.replace(/\b([0-9a-f]{12})[0-9a-f]{20,}\b/g, "$1…");
}
