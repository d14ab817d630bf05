/** A titled table: the report is a list of these, rendered as text for the terminal or Markdown for docs. */
export interface Section {
  readonly title: string;
  readonly headers: readonly string[];
  /** "r" right-aligns a column (numbers). */
  readonly align?: readonly ("l" | "r")[];
  readonly rows: readonly (readonly string[])[];
  readonly notes?: readonly string[];
}

export function renderText(sections: readonly Section[]): string {
  const out: string[] = [];
  for (const s of sections) {
    out.push(s.title, "=".repeat(Math.min(s.title.length, 100)));
    if (s.rows.length) {
      const widths = s.headers.map((h, i) => Math.max(h.length, ...s.rows.map((r) => (r[i] ?? "").length)));
      const cell = (text: string, i: number) => (s.align?.[i] === "r" ? text.padStart(widths[i]) : text.padEnd(widths[i]));
      out.push(s.headers.map(cell).join("  ").trimEnd());
      out.push(widths.map((w) => "-".repeat(w)).join("  "));
      for (const row of s.rows) out.push(row.map((c, i) => cell(c, i)).join("  ").trimEnd());
    }
    for (const note of s.notes ?? []) out.push(`  ${note}`);
    out.push("");
  }
  return out.join("\n");
}

export function renderMarkdown(sections: readonly Section[], level = 3): string {
  const out: string[] = [];
  const escape = (text: string) => text.replace(/\|/g, "\\|");
  for (const s of sections) {
    out.push(`${"#".repeat(level)} ${s.title}`, "");
    if (s.rows.length) {
      out.push(`| ${s.headers.map(escape).join(" | ")} |`);
      out.push(`|${s.headers.map((_, i) => (s.align?.[i] === "r" ? "---:" : "---")).join("|")}|`);
      for (const row of s.rows) out.push(`| ${row.map(escape).join(" | ")} |`);
      out.push("");
    }
    for (const note of s.notes ?? []) out.push(`- ${note}`);
    if (s.notes?.length) out.push("");
  }
  return out.join("\n");
}
