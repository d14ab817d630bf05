import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { CallOutcome, decodeJournalItem, effectKey, type JournalEntry } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { keyDeriver, keyExpressionOf } from "./business-key";
import { DEFAULT_MAX_MESSAGES, matches } from "./dlq-list";
import { withDlqScan } from "./dlq-scan";
import { dateWithRelative, duration, fields, humanDate, plural, readableDetail, truncate } from "./format";
import { claimMeaning, getLedgerClaim, type LedgerClaim } from "./ledger-get";
import { operationOf, requireOutput } from "./outputs";
import type { DlqEntry, OpsContext } from "./types";
import { safeCell } from "./safe-text";
import { getPowertoolsRecord, powertoolsRecordAddress, type PowertoolsRecord } from "./powertools-record";
import { OutputName } from "@effectively-once/contract";
import { ClaimStatus } from "@effectively-once/contract";

export type { PowertoolsRecord };

export interface TraceOptions {
  readonly key: string;
  readonly operation?: string;
  /** Scan at most this many DLQ messages (default 100). */
  readonly max?: number;
  readonly keyExpression?: string;
  readonly holdSeconds?: number;
}


export interface EffectCall {
  readonly at: string;
  readonly messageId?: string;
  readonly outcome: string;
}

export interface AppliedEffect {
  readonly messageId?: string;
  readonly appliedAt?: string;
  /** The item's other attributes as compact JSON (the domain's result, e.g. a charge id and amount). */
  readonly summary: string;
}

/** Journal attributes every EFFECT item has; the rest is the domain's. */

export interface Effects {
  readonly table: string;
  /** The effect key (the downstream's idempotency key): `<businessKey>#<operation>`. */
  readonly effectKey: string;
  /** The EFFECT item (packages/contract/src/effects.ts): what was applied, by which message, when. */
  readonly effect?: AppliedEffect;
  /** How many times the side effect actually ran (CALL items). */
  readonly calls: number;
  readonly callsByOutcome: Readonly<Record<string, number>>;
  /** The latest calls, newest last (at most 10). */
  readonly recentCalls: readonly EffectCall[];
}

export interface KeyTrace {
  readonly key: string;
  readonly operation: string;
  readonly ledgerTable: string;
  readonly ledger?: LedgerClaim;
  readonly powertools: { readonly table: string; readonly id: string; readonly record?: PowertoolsRecord };
  /** Absent when the stack has no `effects_table_name` output (no effect journal). */
  readonly effects?: Effects;
  readonly dlq: { readonly queueUrl: string; readonly messages: readonly DlqEntry[]; readonly scanned: number; readonly truncated: boolean };
  /** What the evidence says, first sentence = the answer. */
  readonly verdict: readonly string[];
  /** False when no store knows the key at all. */
  readonly known: boolean;
}

/** Everything known about a business key: ledger, Powertools record, downstream effects and DLQ messages. */
export async function traceKey(ctx: OpsContext, options: TraceOptions): Promise<KeyTrace> {
  const operation = operationOf(ctx, options.operation);
  const { table: idempotencyTable, id: powertoolsId } = powertoolsRecordAddress(ctx, options.key, operation);
  const journal = ctx.outputs[OutputName.EffectsTable];
  const effectsTable = typeof journal === "string" ? journal : undefined;
  const ddb = (resource: string) => ({ service: "DynamoDB" as const, endpoint: ctx.endpoints?.dynamodb, resource });

  const [ledger, record, effects] = await Promise.all([
    getLedgerClaim(ctx, { key: options.key, operation }),
    getPowertoolsRecord(ctx, options.key, operation),
    effectsTable ? readEffects(ctx, effectsTable, effectKey(options.key, operation), ddb(`the effects table ${effectsTable}`)) : Promise.resolve(undefined),
  ]);
  const deriveKey = keyDeriver(keyExpressionOf(ctx.outputs, options.keyExpression));
  const dlq = await withDlqScan(ctx, { max: options.max ?? DEFAULT_MAX_MESSAGES, holdSeconds: options.holdSeconds, deriveKey }, async (scan) => ({
    queueUrl: scan.queueUrl,
    messages: scan.held.map((m) => m.entry).filter((entry) => matches(entry, { key: options.key })),
    scanned: scan.held.length,
    truncated: scan.truncated,
  }));
  const powertools = { table: idempotencyTable, id: record?.id ?? powertoolsId, record };
  const trace = { key: options.key, operation, ledgerTable: requireOutput(ctx, OutputName.LedgerTable), ledger, powertools, effects, dlq };
  const known = Boolean(ledger || record || (effects && (effects.effect || effects.calls > 0)) || dlq.messages.length > 0);
  return { ...trace, verdict: verdictOf(trace, ctx.now()), known };
}

async function readEffects(ctx: OpsContext, table: string, key: string, where: Parameters<typeof awsCall>[1]): Promise<Effects> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await awsCall("reading the effects", where, () =>
      ctx.dynamodb.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": key },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  const entries = items.flatMap((item) => decodeJournalItem(item) ?? []);
  const effectEntry = entries.find((e) => e.kind === "effect");
  const calls = entries.flatMap((e) => (e.kind === "call" ? [e] : []));
  const callsByOutcome: Record<string, number> = {};
  for (const call of calls) callsByOutcome[call.outcome] = (callsByOutcome[call.outcome] ?? 0) + 1;
  // CALL sort keys start with the ISO time, so the query returns them oldest first.
  const recentCalls = calls.slice(-10).map((call) => ({ at: call.at, ...(call.messageId !== undefined ? { messageId: call.messageId } : {}), outcome: call.outcome }));
  return {
    table,
    effectKey: key,
    ...(effectEntry?.kind === "effect" ? { effect: appliedEffect(effectEntry) } : {}),
    calls: calls.length,
    callsByOutcome,
    recentCalls,
  };
}

function appliedEffect(effect: Extract<JournalEntry, { kind: "effect" }>): AppliedEffect {
  const rest = Object.fromEntries(Object.entries(effect.attributes).sort(([a], [b]) => a.localeCompare(b)));
  return {
    ...(effect.messageId !== undefined ? { messageId: effect.messageId } : {}),
    ...(effect.appliedAt !== undefined ? { appliedAt: effect.appliedAt } : {}),
    summary: truncate(JSON.stringify(rest), 160),
  };
}

type TraceFacts = Omit<KeyTrace, "verdict" | "known">;

function verdictOf(t: TraceFacts, nowMs: number): string[] {
  const out: string[] = [];
  const applied = t.effects?.effect;
  const reasons = [...new Set(t.dlq.messages.map((m) => m.reason))];
  if (applied) {
    out.push(`applied once: ${applied.summary}${applied.messageId ? ` by message ${applied.messageId}` : ""}`);
    if (t.effects!.calls > 1) out.push(`the downstream was called ${t.effects!.calls} times (${outcomes(t.effects!.callsByOutcome)})${callsNote(t.effects!.callsByOutcome)}`);
  } else if (t.ledger?.status === ClaimStatus.InProgress && !t.ledger.leaseExpired && !t.ledger.retentionExpired) {
    out.push(`in progress: claimed by message ${t.ledger.owner ?? "?"}; not applied yet`);
  } else if (t.ledger?.status === ClaimStatus.Completed && !t.effects) {
    out.push("applied (the ledger claim is COMPLETED)");
  } else if (t.ledger?.status === ClaimStatus.Completed) {
    out.push("the ledger says applied but the downstream holds no effect for the key (its item expired, or another effects table)");
  } else if (t.dlq.messages.length > 0) {
    const latest = t.dlq.messages[t.dlq.messages.length - 1];
    out.push(`not applied: quarantined as ${reasons.join(", ")}${latest.detail ? ` (${truncate(readableDetail(latest.detail), 160)})` : ""}`);
  } else if (t.ledger) {
    out.push(`not applied: ${claimMeaning(t.ledger)}`);
  } else if (t.powertools.record) {
    out.push(`not applied: only the function's Powertools record exists (${t.powertools.record.status})`);
  } else {
    out.push(`nothing known about key ${t.key} (operation ${t.operation}): never received, retention over, or another key spelling`);
  }
  if (applied && t.dlq.messages.length > 0) {
    out.push(`${plural(t.dlq.messages.length, "later message")} for this key ${t.dlq.messages.length === 1 ? "is" : "are"} in the DLQ (${reasons.join(", ")})`);
  }
  if (t.ledger?.status === ClaimStatus.InProgress && t.ledger.leaseExpired) {
    out.push("the ledger claim is IN_PROGRESS with its lease run out: the next delivery of the key takes it over");
  }
  const pt = t.powertools.record;
  if (pt?.status === "INPROGRESS" && pt.inProgressExpiration !== undefined && pt.inProgressExpiration > nowMs) {
    out.push(`the function's Powertools record is INPROGRESS for ${duration(pt.inProgressExpiration - nowMs)} more: a retry before then fails with IdempotencyAlreadyInProgressError and is retried`);
  }
  return out;
}

/** What repeated calls mean: a replay is a repeat the downstream answered with the stored effect, a conflict was refused. */
function callsNote(byOutcome: Readonly<Record<string, number>>): string {
  const notes = [
    byOutcome[CallOutcome.Replayed] ? "replayed = a repeat answered with the stored effect" : undefined,
    byOutcome[CallOutcome.Conflict] ? "conflict = refused, the downstream held another payload" : undefined,
  ].filter(Boolean);
  return notes.length ? `: ${notes.join("; ")}` : "";
}

function outcomes(byOutcome: Readonly<Record<string, number>>): string {
  return Object.entries(byOutcome)
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(", ");
}

/** The human view, one section per store. */
export function renderTrace(t: KeyTrace, nowMs: number): string {
  const at = (ms: number | undefined) => (ms === undefined ? undefined : dateWithRelative(ms, nowMs));
  const lines = [`key ${safeCell(t.key)}, operation ${t.operation}`, ...t.verdict.map((v, i) => (i === 0 ? `verdict: ${v}` : `         ${v}`)), ""];

  lines.push(`ledger (${t.ledgerTable})`);
  if (!t.ledger) lines.push("  no item");
  else {
    lines.push(
      fields([
        ["status", t.ledger.status],
        ["owner", t.ledger.owner],
        ["payload hash", t.ledger.payloadHash],
        ["claimed", at(t.ledger.claimedAt && t.ledger.claimedAt * 1000)],
        ["lease", t.ledger.leaseExpiresAt === undefined ? undefined : `${t.ledger.leaseExpired ? "ran out" : "until"} ${at(t.ledger.leaseExpiresAt * 1000)}`],
        ["completed", at(t.ledger.completedAt && t.ledger.completedAt * 1000)],
        ["expires", at(t.ledger.expiresAt && t.ledger.expiresAt * 1000)],
      ]),
    );
  }

  const earlier = t.powertools.record?.legacy ? "; the id form of release 0.2 and earlier" : "";
  lines.push("", `Powertools record (${t.powertools.table}, id ${t.powertools.id}${earlier})`);
  const pt = t.powertools.record;
  if (!pt) lines.push("  no record");
  else {
    lines.push(
      fields([
        ["status", pt.status],
        ["in progress until", pt.status === "INPROGRESS" ? at(pt.inProgressExpiration) : undefined],
        ["expires", at(pt.expiration && pt.expiration * 1000)],
        ["validation hash", pt.validation],
        ["stored result", pt.data === undefined ? undefined : truncate(JSON.stringify(pt.data), 160)],
      ]),
    );
  }

  if (t.effects) {
    const e = t.effects;
    lines.push("", `effects (${e.table}, effect key ${safeCell(e.effectKey)})`);
    lines.push(
      fields([
        ["effect", e.effect ? `${e.effect.summary}${e.effect.appliedAt ? `, applied ${at(Date.parse(e.effect.appliedAt))}` : ""}` : "none"],
        ["calls", e.calls === 0 ? "0" : `${e.calls} (${outcomes(e.callsByOutcome)})`],
      ]),
    );
    for (const call of e.recentCalls) {
      const when = Number.isNaN(Date.parse(call.at)) ? call.at : humanDate(Date.parse(call.at));
      lines.push(`    ${when}  ${call.outcome.padEnd(8)}  message ${call.messageId ?? "?"}`);
    }
  }

  lines.push("", `DLQ (${t.dlq.queueUrl}): ${plural(t.dlq.messages.length, "message")} for this key${t.dlq.truncated ? ` among the first ${t.dlq.scanned} scanned (raise --max)` : ""}`);
  for (const m of t.dlq.messages) {
    lines.push(safeCell(`  ${m.reason.padEnd(17)}  ${m.ageMs === undefined ? "?" : `${duration(m.ageMs)} old`}  message ${m.originalMessageId}${m.detail ? `  ${truncate(readableDetail(m.detail), 120)}` : ""}`));
  }
  return lines.join("\n");
}
