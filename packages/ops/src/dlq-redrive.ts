import { DeleteMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { awsCall } from "./aws-errors";
import { keyDeriver, keyExpressionOf } from "./business-key";
import { copyAttributes, pipeKeeps } from "./redrive-copy";
import { copySizeProblem, sourceQueueMaxBytes } from "./redrive-size";
import { fifoCopyFields, groupOrder } from "./redrive-order";
import { type DlqFilter, DEFAULT_MAX_MESSAGES, matches } from "./dlq-list";
import { withDlqScan, type HeldMessage } from "./dlq-scan";
import { RefusedError, TargetError } from "./errors";
import { humanDate, MAX_CELL, plural, table, truncate } from "./format";
import { hasOutput, operationOf, requireOutput } from "./outputs";
import { getLedgerClaim } from "./ledger-get";
import { honouredIds } from "./function-ids";
import { getPowertoolsRecords, POWERTOOLS_COMPLETED } from "./powertools-record";
import { redriveRisk, redriveWindowOf, withProvenFirstSent, type KeyMemory, type RedriveWindow } from "./redrive-safety";
import { type DlqEntry, type OpsContext } from "./types";
import { safeCell } from "./safe-text";
import { OutputName } from "@effectively-once/contract";
import { DlqReason } from "@effectively-once/contract";
import { ClaimStatus } from "@effectively-once/contract";

export interface DlqRedriveOptions extends DlqFilter {
  /** Show what would move; send and delete nothing. */
  readonly dryRun?: boolean;
  /** Also replay payload-mismatch messages, and messages the ledger may not recognise (with a warning each). */
  readonly force?: boolean;
  /** Scan at most this many DLQ messages (default 100). */
  readonly max?: number;
  readonly keyExpression?: string;
  readonly holdSeconds?: number;
  /** Reminders, said before anything moves (the CLI prints them on stderr). */
  readonly onNotice?: (line: string) => void;
  /** Loud warnings about what `force` lets through (the CLI prints them on stderr). */
  readonly onWarning?: (line: string) => void;
  /** Runs after the arguments are checked, before the DLQ is read (the CLI's warning about SQS's own redrive). */
  readonly beforeScan?: () => Promise<void>;
}

export interface RedrivenMessage {
  readonly entry: DlqEntry;
  /** The id the source queue gave the copy (absent in a dry run). */
  readonly newMessageId?: string;
}

export interface RedriveFailure {
  readonly entry: DlqEntry;
  /** True when the copy reached the source queue but the DLQ message could not be deleted (a harmless duplicate). */
  readonly sent: boolean;
  readonly error: string;
}

export interface UnsafeRedrive {
  readonly entry: DlqEntry;
  readonly why: string;
}

export interface DlqRedriveResult {
  readonly dlqUrl: string;
  readonly queueUrl: string;
  readonly dryRun: boolean;
  readonly scanned: number;
  readonly truncated: boolean;
  /** Moved (or, in a dry run, would move). */
  readonly moved: readonly RedrivenMessage[];
  /** payload-mismatch messages left in the DLQ because --force was not given. */
  readonly skipped: readonly DlqEntry[];
  /** Messages whose copy the pipeline might not recognise as already applied (left in the DLQ without --force), each with why. */
  readonly unsafe: readonly UnsafeRedrive[];
  /** The retention figures behind `unsafe`. */
  readonly window: RedriveWindow;
  /** What --force let through against the window. */
  readonly warnings: readonly string[];
  readonly failed: readonly RedriveFailure[];
  readonly notices: readonly string[];
}

const FILTERED_WHY =
  "the stack's pipe filter patterns would drop the copy (the pipe deletes it unprocessed): " +
  "its attributes or body no longer match; send it with the attributes the filters expect, or change the filters";

const MISMATCH_WHY =
  "the key was already applied with another payload, so a replay cannot succeed (it is quarantined again) " +
  "and an operator must decide what the change means (e.g. send it under a new business key)";

/**
 * Moves matching DLQ messages back to the source queue: send the body unchanged, then delete from the DLQ, in that
 * order, so a crash between the two duplicates a message rather than losing it (the pipeline recognises the
 * duplicate by its business key). payload-mismatch messages move only with `force`, and so do messages the
 * pipeline might not recognise as already applied (the rule and its proof: redrive-safety.ts; it reads the ledger).
 * Every copy carries `firstSentTimestamp`, so its age survives any number of quarantine/redrive cycles.
 */
export async function redriveDlq(ctx: OpsContext, options: DlqRedriveOptions = {}): Promise<DlqRedriveResult> {
  if (options.reason === DlqReason.PayloadMismatch && !options.force) {
    throw new RefusedError(`refusing to redrive payload-mismatch messages without --force: ${MISMATCH_WHY}`);
  }
  const queueUrl = requireOutput(ctx, OutputName.QueueUrl);
  const window = redriveWindowOf(ctx);
  await options.beforeScan?.();
  const deriveKey = keyDeriver(keyExpressionOf(ctx.outputs, options.keyExpression));
  const sqsAt = { service: "SQS" as const, endpoint: ctx.endpoints?.sqs };
  return withDlqScan(ctx, { max: options.max ?? DEFAULT_MAX_MESSAGES, holdSeconds: options.holdSeconds, deriveKey }, async (scan, settle) => {
    // The first send each message can be proven to have had (a FIFO DLQ's SQS-moved copy: redrive-safety.ts): judged
    // by it, and carried by the copy as its firstSentTimestamp, so the next redrive starts from it too.
    const scanned = scan.held.map((held) => ({ ...held, entry: withProvenFirstSent(window, held.entry) }));
    const selected = scanned.filter((m) => matches(m.entry, options));
    if (!hasOutput(ctx, OutputName.WorkflowRoleId) && selected.some((m) => m.message.MessageAttributes?.reason !== undefined)) {
      options.onNotice?.(
        `the stack has no ${OutputName.WorkflowRoleId} output, so no DLQ message can be proven the quarantine's own (a producer may set a \`reason\` attribute): ` +
          "every message is judged as retries-exhausted; deploy the stack again with this version",
      );
    }
    const isMismatch = (m: HeldMessage) => m.entry.reason === DlqReason.PayloadMismatch;
    // Without --force a payload-mismatch message stays whatever the ledger says: its key needs no read.
    const memories = await keyMemories(ctx, options.force ? selected : selected.filter((m) => !isMismatch(m)), options.onNotice);
    // Read after the ledger, so no claim can be older than the clock the rule compares it with; and never earlier
    // than what SQS itself stamped: a lagging operator clock would make every message look younger than it is.
    const now = Math.max(ctx.now(), ...scanned.map((m) => serverTimeOf(m.message)));
    // A copy the pipe's filters would drop is deleted unprocessed: refused even with --force, which cannot help it.
    const keeps = pipeKeeps(ctx);
    const dropped = (held: HeldMessage) => !keeps(held.entry.body, copyAttributes(held.entry, held.message, now));
    // A copy the source queue cannot take (a message over the documented limit): refused even with --force too.
    const queueMax = selected.length > 0 ? await sourceQueueMaxBytes(ctx, queueUrl) : undefined;
    const oversize = (held: HeldMessage) => copySizeProblem(held.entry.body, copyAttributes(held.entry, held.message, now), queueMax);
    const judged = selected.map((held) => ({ held, mismatch: isMismatch(held), filtered: dropped(held), oversize: oversize(held), why: redriveRisk(window, held.entry, memories.get(held.entry.businessKey ?? ""), now) }));
    const blocked = (j: (typeof judged)[number]) => j.filtered || j.oversize !== undefined;
    const skipped = options.force ? [] : judged.filter((j) => j.mismatch && !blocked(j)).map((j) => j.held.entry);
    const unsafe = judged.flatMap((j) =>
      j.oversize !== undefined ? [{ entry: j.held.entry, why: j.oversize }]
      : j.filtered ? [{ entry: j.held.entry, why: FILTERED_WHY }]
      : !options.force && !j.mismatch && j.why ? [{ entry: j.held.entry, why: j.why }]
      : [],
    );
    // FIFO: a group moves in the DLQ's order, up to its first message that stays (redrive-order.ts).
    const order = groupOrder(queueUrl);
    const picked = new Set(selected);
    const moving = scanned.flatMap((held) => {
      const j = picked.has(held) ? judged[selected.indexOf(held)] : undefined;
      const behind = order.blockedBy(held.entry);
      const moves = j !== undefined && behind === undefined && !blocked(j) && (options.force || (!j.mismatch && !j.why));
      if (!moves) order.stays(held.entry);
      if (j !== undefined && behind !== undefined) unsafe.push({ entry: held.entry, why: behind });
      return moves && j !== undefined ? [j] : [];
    });
    const toMove = moving.map((j) => j.held);
    const notices = noticesFor(toMove, skipped);
    // --force cannot help a copy the filters drop or the queue cannot take: the summary (and its advice) counts only the others.
    const unrecognised = judged.filter((j) => !blocked(j) && !options.force && !j.mismatch && j.why).length;
    if (unrecognised > 0) {
      notices.push(
        `refusing ${plural(unrecognised, "message")} the pipeline might not recognise as already applied: ` +
          "check the downstream system for each key (`ledger get`, `trace`), then pass --force to replay anyway",
      );
    }
    notices.push(...unsafe.map(({ entry, why }) => `refusing ${messageLabel(entry)}: ${why}`));
    notices.forEach((line) => options.onNotice?.(line));
    const warnings = moving.flatMap((j) => (j.why ? [forcedWarning(j.held.entry, j.why)] : []));
    warnings.forEach((line) => options.onWarning?.(line));
    const base = { dlqUrl: scan.queueUrl, queueUrl, dryRun: options.dryRun === true, scanned: scan.held.length, truncated: scan.truncated, skipped, unsafe, window, warnings, notices };
    if (options.dryRun) return { ...base, moved: toMove.map((m) => ({ entry: m.entry })), failed: [] };

    const moved: RedrivenMessage[] = [];
    const failed: RedriveFailure[] = [];
    const sending = groupOrder(queueUrl);
    for (const held of toMove) {
      let sent = false;
      const behind = sending.blockedBy(held.entry);
      if (behind !== undefined) {
        failed.push({ entry: held.entry, sent, error: `not sent: ${behind}` });
        continue;
      }
      try {
        const { MessageId } = await awsCall("sending to the source queue", { ...sqsAt, resource: `the source queue ${queueUrl}` }, () =>
          ctx.sqs.send(
            new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: held.entry.body, MessageAttributes: copyAttributes(held.entry, held.message, now), ...fifoCopyFields(queueUrl, held.entry) }),
          ),
        );
        sent = true;
        await awsCall("deleting from the DLQ", { ...sqsAt, resource: `the DLQ ${scan.queueUrl}` }, () =>
          ctx.sqs.send(new DeleteMessageCommand({ QueueUrl: scan.queueUrl, ReceiptHandle: held.receiptHandle })),
        );
        settle(held);
        moved.push({ entry: held.entry, ...(MessageId ? { newMessageId: MessageId } : {}) });
      } catch (error) {
        if (!sent) sending.stays(held.entry);
        failed.push({ entry: held.entry, sent, error: (error as Error).message });
        // An unreachable or misconfigured target fails every further message the same way.
        if (error instanceof TargetError) break;
      }
    }
    return { ...base, moved, failed };
  });
}

/** The latest moment SQS vouches has passed for a received message: its send or first receive (epoch ms), else 0. */
function serverTimeOf(message: HeldMessage["message"]): number {
  const stamp = (name: string) => Number(message.Attributes?.[name as keyof typeof message.Attributes]);
  return Math.max(0, ...[stamp("SentTimestamp"), stamp("ApproximateFirstReceiveTimestamp")].filter(Number.isFinite));
}

/** "<original message id> (key …)", as the refusals and warnings name a message. */
function messageLabel(entry: DlqEntry): string {
  return `${entry.originalMessageId}${entry.businessKey ? ` (key ${truncate(safeCell(entry.businessKey), MAX_CELL)})` : ""}`;
}

function forcedWarning(entry: DlqEntry, why: string): string {
  return `WARNING: --force replays ${messageLabel(entry)}: ${why}. If its key was applied before, it may be applied AGAIN`;
}

/**
 * What both layers remember of the selected keys (consistent reads; one of each per distinct key): the later-expiring
 * COMPLETED record of the ledger and of the function's Powertools table, under the ids the deployed function honours.
 * The ledger alone is no witness: it can lose an applied key early (a Complete that failed after the invocation, a
 * released takeover, an operator's release), while Powertools keeps every completed invocation for the retention from
 * its completion.
 */
async function keyMemories(ctx: OpsContext, selected: readonly HeldMessage[], onNotice?: (line: string) => void): Promise<Map<string, KeyMemory>> {
  const keys = [...new Set(selected.flatMap((m) => (m.entry.businessKey === undefined ? [] : [m.entry.businessKey])))];
  const memories = new Map<string, KeyMemory>();
  const missing = [OutputName.LedgerTable, OutputName.Operation].filter((name) => !hasOutput(ctx, name));
  if (keys.length > 0 && missing.length > 0) {
    // A stack from before these outputs: the age rules alone still hold, only no ledger can vouch for a key.
    onNotice?.(`the stack has no ${missing.join(" / ")} output, so the ledger is not read: only messages at most the source queue's retention old (or rejected ones within retention − that) can move`);
    return memories;
  }
  // Only the records the DEPLOYED function honours are a witness (its configuration, not the outputs: function-ids.ts).
  const honoured = keys.length > 0 && hasOutput(ctx, OutputName.IdempotencyTable) ? await honouredIds(ctx) : undefined;
  const powertools = honoured !== undefined && honoured.forms.length > 0;
  if (keys.length > 0 && !hasOutput(ctx, OutputName.IdempotencyTable)) {
    onNotice?.(`the stack has no ${OutputName.IdempotencyTable} output, so only the ledger is read: a key it lost early (a failed Complete, a released takeover) cannot be seen`);
  }
  if (honoured?.notice !== undefined) onNotice?.(honoured.notice);
  const operation = operationOf(ctx, undefined);
  for (const key of keys) {
    // Every id form the deployed function answers from: its own, and the earlier releases' while its legacy prefix is set.
    const [claim, records] = await Promise.all([getLedgerClaim(ctx, { key }), powertools ? getPowertoolsRecords(ctx, key, operation, honoured.forms) : []]);
    const completed = [
      claim?.status === ClaimStatus.Completed && claim.expiresAt !== undefined ? claim.expiresAt * 1000 : undefined,
      ...records.map((record) => (record.status === POWERTOOLS_COMPLETED && record.expiration !== undefined ? record.expiration * 1000 : undefined)),
    ].filter((ms): ms is number => ms !== undefined);
    if (completed.length > 0) memories.set(key, { status: ClaimStatus.Completed, expiresAtMs: Math.max(...completed) });
    else if (claim) memories.set(key, { status: claim.status, ...(claim.expiresAt !== undefined ? { expiresAtMs: claim.expiresAt * 1000 } : {}) });
  }
  return memories;
}

function noticesFor(toMove: readonly HeldMessage[], skipped: readonly DlqEntry[]): string[] {
  const count = (reason: string) => toMove.filter((m) => m.entry.reason === reason).length;
  const notices: string[] = [];
  if (skipped.length > 0) {
    notices.push(`skipping ${plural(skipped.length, "payload-mismatch message")}: ${MISMATCH_WHY}; pass --force to replay them anyway`);
  }
  const rejected = count(DlqReason.Rejected);
  if (rejected > 0) {
    notices.push(
      `${plural(rejected, "rejected message")}: the function refused ${rejected === 1 ? "it" : "them"} with a permanent error (see DETAIL in \`dlq list\`). ` +
        "Fix the cause first (deploy the fixed function, correct the downstream); otherwise the replay is quarantined again",
    );
  }
  const invalid = count(DlqReason.InvalidMessage);
  if (invalid > 0) {
    notices.push(
      `${plural(invalid, "invalid-message message")}: the body is sent unchanged, so ${invalid === 1 ? "it is" : "they are"} quarantined again ` +
        "unless the pipeline's key expression or required fields changed",
    );
  }
  const exhausted = count(DlqReason.RetriesExhausted);
  if (exhausted > 0) {
    notices.push(
      `${plural(exhausted, "retries-exhausted message")}: ${exhausted === 1 ? "it" : "they"} failed transiently on every receive; ` +
        "check that the cause is gone (function errors, throttling, `ledger get <key>` for a stuck claim) before replaying",
    );
  }
  return notices;
}

/** The human report. */
export function renderRedrive(result: DlqRedriveResult): string {
  const verb = result.dryRun ? "would move" : "moved";
  const lines = [`${verb} ${plural(result.moved.length, "message")} from ${result.dlqUrl} to ${result.queueUrl}${result.dryRun ? " (dry run: nothing sent or deleted)" : ""}`];
  if (result.moved.length > 0) {
    const header = ["REASON", "BUSINESS KEY", "ORIGINAL MESSAGE ID", ...(result.dryRun ? [] : ["NEW MESSAGE ID"])];
    const rows = result.moved.map((m) => [m.entry.reason, m.entry.businessKey ?? "-", m.entry.originalMessageId, ...(result.dryRun ? [] : [m.newMessageId ?? "?"])]);
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
