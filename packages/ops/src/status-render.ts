import { dateWithRelative, duration, fields, humanDate, plural } from "./format";
import { PROG } from "./help";
import { safeCell } from "./safe-text";
import type { PipelineStatus } from "./status";
import type { StuckClaim } from "./stuck-claims";

/** On-demand read request units, US East (packages/cli/src/cost's prices file: dynamodb.read): printed with the scan's units. */
const USD_PER_READ_UNIT = 0.125 / 1e6;

/** A shell word: single-quoted unless it is plainly safe (business keys are JSON text with quotes and brackets). */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The command that frees one stuck claim: `ledger release` (it shows the claim and asks before deleting it). */
function releaseCommand(claim: StuckClaim, targetArgs: readonly string[]): string {
  return [PROG, "ledger", "release", shellWord(claim.key), "--operation", shellWord(claim.operation), ...targetArgs.map(shellWord)].join(" ");
}

function scanLine(what: string, r: { table: string; scannedItems: number; readUnits: number; truncated: boolean }): string {
  const cost = `${r.readUnits.toFixed(1)} read units, $${USD_PER_READ_UNIT * 1e6} per million on demand`;
  return `  scanned ${plural(r.scannedItems, "item")} of ${r.table} for ${what} (${cost})${r.truncated ? "; stopped at the budget: raise --scan-items to read on" : ", the whole table"}`;
}

/** The human view of `status`: what needs a person first, then each part. */
export function renderStatus(s: PipelineStatus, nowMs: number, targetArgs: readonly string[]): string {
  const out: string[] = [];
  out.push(s.attention.length === 0 ? "OK: nothing needs a person" : `ATTENTION:\n${s.attention.map((a) => `  - ${a}`).join("\n")}`);
  out.push(
    "",
    "Source queue",
    fields([
      ["url", s.source.url],
      ["waiting", String(s.source.visible)],
      ["in flight", String(s.source.inFlight)],
      ["delayed", String(s.source.delayed)],
      ["oldest", s.source.oldestAgeSeconds !== undefined ? duration(s.source.oldestAgeSeconds * 1000) : s.source.ageNote],
    ]),
  );
  const reasons = Object.entries(s.dlq.byReason).map(([reason, n]) => `${reason} ${n}`).join(", ");
  out.push(
    "",
    "Dead-letter queue",
    fields([
      ["url", s.dlq.url],
      ["messages", `${s.dlq.visible + s.dlq.inFlight}${s.dlq.delayed ? ` (+${s.dlq.delayed} delayed)` : ""}`],
      ["by reason", reasons ? `${reasons}${s.dlq.truncated ? ` (first ${s.dlq.scanned} scanned: raise --max)` : ""}` : "-"],
      ["retention", duration(s.dlq.retentionSeconds * 1000)],
      ["oldest", s.dlq.oldest ? `${safeCell(s.dlq.oldest.reason)}, sent ${dateWithRelative(s.dlq.oldest.sentAt, nowMs)}` : undefined],
      ["deleted by SQS", s.dlq.oldest ? `${humanDate(s.dlq.oldest.expiresAt)} (${duration(Math.max(0, s.dlq.oldest.expiresAt - nowMs))} left): list with \`${PROG} dlq list\`` : undefined],
    ]),
  );
  out.push("", "Alarms");
  if (!s.alarms.evaluated) out.push(`  ${s.alarms.note}`);
  else if (s.alarms.alarms.length === 0) out.push(`  none named ${s.alarms.prefix}*`);
  else for (const a of s.alarms.alarms) out.push(`  ${a.state.padEnd(17)} ${a.name}${a.since ? `  since ${dateWithRelative(a.since, nowMs)}` : ""}`);
  out.push("", "Claims IN_PROGRESS past their lease (the ledger)");
  if (s.stuckClaims.found.length === 0) out.push("  none");
  for (const c of s.stuckClaims.found) {
    out.push(`  ${safeCell(c.key)} (${safeCell(c.operation)}), owner ${safeCell(c.owner ?? "?")}, lease ran out ${dateWithRelative(c.leaseExpiresAt * 1000, nowMs)}`);
    out.push(`    free it: ${releaseCommand(c, targetArgs)}`);
  }
  out.push(scanLine("IN_PROGRESS claims", s.stuckClaims));
  const pt = s.stuckPowertoolsRecords;
  if (pt) {
    out.push("", "Powertools records INPROGRESS past their expiry (the function's table; they block nothing: the next call runs)");
    out.push(pt.found.length === 0 ? "  none" : pt.found.map((r) => `  ${safeCell(r.id)}, expired ${dateWithRelative(r.inProgressExpiration, nowMs)}`).join("\n"));
    out.push(scanLine("INPROGRESS records", pt));
  }
  return out.join("\n");
}
