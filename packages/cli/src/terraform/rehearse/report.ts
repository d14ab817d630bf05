import { formatDuration } from "../progress";
import { formatDrift } from "./drift";
import { CHANGE_TEXT, type RehearsalReport } from "./run";
import { formatResults } from "./table";

/** The rehearsal's report, as printed on stdout. */
export function formatReport(report: RehearsalReport): string {
  const out: string[] = ["Deploy rehearsal against moto (offline)", "", formatResults(report.resources), ""];
  if (!report.replanned) out.push("Second plan: not run (the apply failed)");
  else out.push(`Second plan: ${report.drift.length === 0 ? "no changes (the stack settles)" : `${report.drift.length} change(s):`}`);
  out.push(...formatDrift(report.drift).map((l) => `  ${l}`));
  if (report.change) {
    out.push("", `Change rehearsal (${CHANGE_TEXT}): predicted by npx effectively-once plan / done by terraform`);
    out.push(...report.change.checks.map((c) => `  ${c.predicted === c.actual ? "✔" : "✘"} ${c.address}: ${c.predicted} / ${c.actual}`));
    out.push(`  applied: ${report.change.applied ? "yes" : "NO"}; plan afterwards: ${report.change.drift.length === 0 ? "no changes" : formatDrift(report.change.drift).join("; ")}`);
  }
  const t = report.teardown;
  out.push("", `Teardown: deletion protection off + apply ${t.protectionOff ? "ok" : "FAILED"}, destroy ${t.destroyed ? "ok" : "FAILED"}, left in moto: ${t.left.length ? t.left.join(", ") : "nothing"}`);
  out.push("", "Not rehearsed (moto 5.2.1 gaps, each confirmed by its probe in this run):");
  for (const { gap, confirmed } of report.gaps) {
    out.push(confirmed ? `  not rehearsed: ${gap.what} (${gap.why})` : `  STALE workaround (moto now behaves like AWS): ${gap.what}`);
  }
  const answered = Object.entries(report.frontAnswered).map(([op, n]) => `${op} ×${n}`);
  if (answered.length) out.push(`  answered by the local front: ${answered.join(", ")}`);
  for (const refused of report.refusedDefinitions) out.push(`  definition refused by the local check: ${refused}`);
  out.push("", `Time: ${Object.entries(report.timings).map(([step, ms]) => `${step} ${formatDuration(ms)}`).join(", ")}; total ${formatDuration(Object.values(report.timings).reduce((a, b) => a + b, 0))}`);
  out.push("", report.failures.length === 0 ? "✔ rehearsal passed" : `✘ rehearsal FAILED:\n${report.failures.map((f) => `  - ${f}`).join("\n")}`);
  return `${out.join("\n")}\n`;
}
