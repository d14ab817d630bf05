/** A plain text table. Columns are right-aligned except the first, unless `align` says otherwise. */
export function formatTable(rows: readonly (readonly (string | number)[])[], header?: readonly string[], align?: readonly ("left" | "right")[]): string {
  const all = (header ? [header, ...rows] : rows).map((r) => r.map(String));
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const side = (i: number) => align?.[i] ?? (i === 0 ? "left" : "right");
  const line = (r: string[]) => r.map((cell, i) => (side(i) === "left" ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd();
  const out = all.map(line);
  if (header) out.splice(1, 0, widths.map((w) => "─".repeat(w)).join("  "));
  return out.join("\n");
}
