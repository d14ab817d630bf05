import type { DlqRedriveResult } from "./dlq-redrive";
import { humanDate, plural, table } from "./format";
import { safeCell } from "./safe-text";

/** The human report. */
export function renderRedrive(result: DlqRedriveResult): string {
  const verb = result.dryRun ? "would move" : "moved";
  const lines = [`${verb} ${plural(result.moved.length, "message")} from ${result.dlqUrl} to ${result.queueUrl}${result.dryRun ? " (dry run: nothing sent or deleted)" : ""}`];
  if (result.moved.length > 0) {
    const routes = result.moved.some((m) => m.route === "direct");
    const header = ["REASON", "BUSINESS KEY", "ORIGINAL MESSAGE ID", ...(result.dryRun ? [] : ["NEW MESSAGE ID"]), ...(routes ? ["ROUTE"] : [])];
    const rows = result.moved.map((m) => [m.entry.reason, m.entry.businessKey ?? "-", m.entry.originalMessageId, ...(result.dryRun ? [] : [m.newMessageId ?? "?"]), ...(routes ? [m.route === "direct" ? "state machine" : "source queue"] : [])]);
    lines.push(table(header, rows));
  }
  if (result.skipped.length) lines.push(`skipped ${plural(result.skipped.length, "payload-mismatch message")} (needs --force)`);
  if (result.unsafe.length) {
    lines.push(`refused ${plural(result.unsafe.length, "message")} the pipeline might not recognise (needs --force):`);
    lines.push(table(["REASON", "BUSINESS KEY", "ORIGINAL MESSAGE ID", "FIRST SENT", "WHY"], result.unsafe.map(({ entry: e, why }) => [e.reason, e.businessKey ?? "-", e.originalMessageId, e.firstSentAt ? humanDate(e.firstSentAt) : "unknown", why])));
  }
  if (result.warnings.length) lines.push(...result.warnings);
  for (const f of result.failed) {
    lines.push(`FAILED ${f.entry.originalMessageId}: ${safeCell(f.error)}${f.sent ? " (the copy was sent; the DLQ message stays: a harmless duplicate)" : " (left in the DLQ)"}`);
  }
  if (result.truncated) lines.push(`stopped after ${result.scanned} DLQ messages: run again or raise --max`);
  return lines.join("\n");
}
