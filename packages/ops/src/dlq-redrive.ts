import { DeleteMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { awsCall } from "./aws-errors";
import { keyDeriver, keyExpressionOf } from "./business-key";
import { copyAttributes, pipeKeeps } from "./redrive-copy";
import { copySizeProblem, sourceQueueMaxBytes } from "./redrive-size";
import { fifoCopyFields, groupOrder } from "./redrive-order";
import { type DlqFilter, DEFAULT_MAX_MESSAGES, matches } from "./dlq-list";
import { withDlqScan, type HeldMessage } from "./dlq-scan";
import { RefusedError, TargetError } from "./errors";
import { MAX_CELL, plural, truncate } from "./format";
import { hasOutput, requireOutput } from "./outputs";
import { keyMemories } from "./key-memories";
import { deliverDirect, directRecord, directSizeProblem } from "./redrive-direct";
import { redriveRisk, redriveWindowOf, withProvenFirstSent, type RedriveWindow } from "./redrive-safety";
import { type DlqEntry, type OpsContext } from "./types";
import { safeCell } from "./safe-text";
import { isFifoQueue, OutputName } from "@effectively-once/contract";
import { DlqReason } from "@effectively-once/contract";

export interface DlqRedriveOptions extends DlqFilter {
  /** Show what would move; send and delete nothing. */
  readonly dryRun?: boolean;
  /** Also replay payload-mismatch messages, and messages the ledger may not recognise (with a warning each). */
  readonly force?: boolean;
  /** Scan at most this many DLQ messages (default 100). */
  readonly max?: number;
  readonly keyExpression?: string;
  readonly holdSeconds?: number;
  /**
   * Deliver the copies the source queue cannot take (a message an earlier release's larger limit admitted) straight to
   * the state machine, as one record of a StartSyncExecution, and delete the DLQ copy only once its answer settles the
   * record (redrive-direct.ts). Standard queues only: a FIFO group's order runs through its queue.
   */
  readonly direct?: boolean;
  /** Reminders, said before anything moves (the CLI prints them on stderr). */
  readonly onNotice?: (line: string) => void;
  /** Loud warnings about what `force` lets through (the CLI prints them on stderr). */
  readonly onWarning?: (line: string) => void;
  /** Runs after the arguments are checked, before the DLQ is read (the CLI's warning about SQS's own redrive). */
  readonly beforeScan?: () => Promise<void>;
}

export interface RedrivenMessage {
  readonly entry: DlqEntry;
  /** The id the source queue gave the copy, or the direct record's id (absent in a dry run). */
  readonly newMessageId?: string;
  /** "direct": delivered to the state machine itself (`--direct`), not sent to the source queue. */
  readonly route?: "queue" | "direct";
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

/** The DLQ hold while a direct delivery runs: EXPRESS's 300-second execution limit, and a margin. */
const DIRECT_HOLD_SECONDS = 330;

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
  if (options.direct && isFifoQueue(queueUrl)) {
    throw new RefusedError("refusing --direct on a FIFO stack: a direct delivery would overtake the messages its group holds in the source queue; redrive FIFO messages through the queue");
  }
  if (options.direct) requireOutput(ctx, OutputName.StateMachineArn);
  const window = redriveWindowOf(ctx);
  await options.beforeScan?.();
  const deriveKey = keyDeriver(keyExpressionOf(ctx.outputs, options.keyExpression));
  const sqsAt = { service: "SQS" as const, endpoint: ctx.endpoints?.sqs };
  // A direct delivery waits for the execution (an EXPRESS one runs at most 5 minutes): hold the DLQ copies longer than that.
  const holdSeconds = options.holdSeconds ?? (options.direct ? DIRECT_HOLD_SECONDS : undefined);
  return withDlqScan(ctx, { max: options.max ?? DEFAULT_MAX_MESSAGES, holdSeconds, deriveKey }, async (scan, settle) => {
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
    // A copy the source queue cannot take (e.g. admitted under an earlier release's larger limit): refused even with
    // --force, which cannot help it; --direct hands it to the state machine instead, as one record within its input limit.
    const queueMax = selected.length > 0 ? await sourceQueueMaxBytes(ctx, queueUrl) : undefined;
    const routeOf = (held: HeldMessage) => {
      const attributes = copyAttributes(held.entry, held.message, now);
      const problem = copySizeProblem(held.entry.body, attributes, queueMax);
      if (problem === undefined) return { oversize: undefined };
      if (!options.direct) return { oversize: problem };
      const record = directRecord(ctx, held.entry.body, attributes, now);
      const directId = (JSON.parse(record) as [{ messageId: string }])[0].messageId;
      return { oversize: directSizeProblem(record), direct: { record, messageId: directId } };
    };
    const judged = selected.map((held) => ({ held, mismatch: isMismatch(held), filtered: dropped(held), ...routeOf(held), why: redriveRisk(window, held.entry, memories.get(held.entry.businessKey ?? ""), now) }));
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
    const directOf = new Map(moving.flatMap((j) => (j.direct ? [[j.held, j.direct] as const] : [])));
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
    if (directOf.size > 0) notices.push(`delivering ${plural(directOf.size, "message")} the source queue cannot take straight to the state machine (--direct); each DLQ copy is deleted only once the execution's answer settles its record`);
    if (options.dryRun) return { ...base, moved: toMove.map((m) => ({ entry: m.entry, route: directOf.has(m) ? ("direct" as const) : ("queue" as const) })), failed: [] };

    const moved: RedrivenMessage[] = [];
    const failed: RedriveFailure[] = [];
    const sending = groupOrder(queueUrl);
    for (const held of toMove) {
      let sent = false;
      const direct = directOf.get(held);
      if (direct) {
        try {
          const answer = await deliverDirect(ctx, direct.record, direct.messageId);
          if (!answer.settled) {
            failed.push({ entry: held.entry, sent, error: `not settled by the state machine: ${answer.why}` });
            continue;
          }
          sent = true;
          await awsCall("deleting from the DLQ", { ...sqsAt, resource: `the DLQ ${scan.queueUrl}` }, () => ctx.sqs.send(new DeleteMessageCommand({ QueueUrl: scan.queueUrl, ReceiptHandle: held.receiptHandle })));
          settle(held);
          moved.push({ entry: held.entry, newMessageId: direct.messageId, route: "direct" });
        } catch (error) {
          failed.push({ entry: held.entry, sent, error: (error as Error).message });
          if (error instanceof TargetError) break;
        }
        continue;
      }
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
        moved.push({ entry: held.entry, route: "queue", ...(MessageId ? { newMessageId: MessageId } : {}) });
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
