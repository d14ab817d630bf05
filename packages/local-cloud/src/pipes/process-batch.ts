import type { Message } from "@aws-sdk/client-sqs";
import { ExecutionStatus, InvocationType, PipeLimits, RetryReason } from "./constants";
import type { PipeConfig } from "./config";
import { readBatchResponse } from "./batch-response";
import type { Emit } from "./events";
import { invokeTarget } from "./invoke-target";
import { FifoHold } from "./fifo-hold";
import { splitByPayload } from "./payload-split";
import type { PayloadChunk } from "./payload-split";
import type { InvokeOutcome } from "./invoke-target";
import type { SqsSource } from "./sqs-source";
import { toSqsRecord } from "@effectively-once/contract/pipe-filter";
import type { PipeStats } from "./types";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

export interface BatchContext {
  config: PipeConfig;
  source: SqsSource;
  emit: Emit;
  stats: PipeStats;
  /** Aborted when `stop()` stops waiting for in-flight batches. */
  stopSignal: AbortSignal;
  /** Fire-and-forget executions still running, so `stop()` can wait for them. */
  background: Set<Promise<unknown>>;
}

/**
 * One pipe execution for one received batch: filter (deleting what no filter matches), transform, invoke the
 * target, then delete what succeeded and leave the rest on the queue for its visibility timeout and redrive.
 */
export async function processBatch(ctx: BatchContext, batchId: string, messages: Message[]): Promise<void> {
  const { config, emit, stats } = ctx;
  const startedAt = config.clock.now();
  const records = messages.map((m) => toSqsRecord(m, config.queueArn, config.region));
  stats.batches++;
  stats.messagesReceived += records.length;
  emit({ type: "batch-received", batchId, count: records.length, messageIds: ids(records) });

  const kept: SqsRecord[] = [];
  const dropped: SqsRecord[] = [];
  for (const record of records) (config.filter(record) ? kept : dropped).push(record);
  if (dropped.length > 0) {
    // AWS deletes SQS messages that match no filter; a failed delete brings them back later, filtered again.
    stats.recordsFiltered += dropped.length;
    emit({ type: "records-filtered", batchId, count: dropped.length, messageIds: ids(dropped) });
    await deleteRecords(ctx, batchId, dropped);
  }

  let acknowledged = 0;
  let retried = 0;
  if (kept.length > 0) {
    const outcome = await deliver(ctx, batchId, kept);
    const ackIds = new Set(outcome.ack);
    const toDelete = kept.filter((r) => ackIds.has(r.messageId));
    const toRetry = kept.filter((r) => !ackIds.has(r.messageId));
    acknowledged = await deleteRecords(ctx, batchId, toDelete, true);
    if (toRetry.length > 0) {
      retried = toRetry.length;
      await leaveForRetry(ctx, batchId, toRetry, outcome.retryReason ?? RetryReason.PartialFailure);
    }
  }
  emit({
    type: "batch-completed",
    batchId,
    received: records.length,
    filtered: dropped.length,
    acknowledged,
    retried,
    durationMs: config.clock.now() - startedAt,
  });
}

/**
 * Sends the records to the target, in as many executions as the payload limit needs (payload-split.ts);
 * returns the message ids to delete and, if some are kept, why.
 */
async function deliver(ctx: BatchContext, batchId: string, records: SqsRecord[]): Promise<{ ack: string[]; retryReason?: RetryReason }> {
  const { config, emit } = ctx;
  const input = buildInput(config, records);
  if (!input.ok) {
    emit({ type: "execution-finished", batchId, status: ExecutionStatus.Failed, durationMs: 0, error: "InputTransformFailed", cause: input.error });
    return { ack: [], retryReason: RetryReason.InputTransformFailed };
  }
  const chunks = splitByPayload(records, input.value);
  const ack: string[] = [];
  let retryReason: RetryReason | undefined;
  const hold = new FifoHold(config.fifo);
  for (const [i, whole] of chunks.entries()) {
    const id = chunks.length === 1 ? batchId : `${batchId}.${i + 1}`;
    // A FIFO group with a record to retry in an earlier execution sends none of its later records.
    const { send, hold: held } = hold.split(whole.records);
    if (held.length > 0) retryReason ??= RetryReason.PartialFailure;
    if (send.length === 0) continue;
    const chunk = held.length === 0 ? whole : { ...whole, records: send.map((j) => whole.records[j]), input: send.map((j) => whole.input[j]) };
    const outcome = await deliverChunk(ctx, id, chunk);
    ack.push(...outcome.ack);
    hold.retried(chunk.records, new Set(outcome.ack));
    retryReason ??= outcome.retryReason;
  }
  return { ack, retryReason };
}

async function deliverChunk(ctx: BatchContext, batchId: string, chunk: PayloadChunk): Promise<{ ack: string[]; retryReason?: RetryReason }> {
  const { config, emit, stats } = ctx;
  const { records } = chunk;
  if (chunk.oversized) {
    // StartSyncExecution refuses input over 262,144 characters (API length constraint) before any execution
    // starts: the call fails, so the record stays on the queue until its redrive moves it to the DLQ.
    emit({
      type: "execution-finished",
      batchId,
      status: ExecutionStatus.Failed,
      durationMs: 0,
      error: "PayloadTooLarge",
      cause: `the target input of message ${records[0].messageId} is ${chunk.chars} characters; a Step Functions target takes at most ${PipeLimits.STEP_FUNCTIONS_MAX_INPUT_CHARS}`,
    });
    return { ack: [], retryReason: RetryReason.PayloadTooLarge };
  }
  if (config.invocationType === InvocationType.FireAndForget) {
    // StartExecution returns once the execution has started: the pipe deletes the batch without its result.
    const running = invokeTarget(config, chunk.input, { id: batchId, count: records.length }, ctx.stopSignal, emit, stats);
    ctx.background.add(running);
    void running.finally(() => ctx.background.delete(running));
    return { ack: ids(records) };
  }
  const outcome = await invokeTarget(config, chunk.input, { id: batchId, count: records.length }, ctx.stopSignal, emit, stats);
  return interpret(ctx, batchId, records, outcome);
}

function interpret(ctx: BatchContext, batchId: string, records: SqsRecord[], outcome: InvokeOutcome): { ack: string[]; retryReason?: RetryReason } {
  if (outcome.kind === "aborted") return { ack: [], retryReason: outcome.reason };
  if (outcome.kind === "target-error") return { ack: [], retryReason: RetryReason.TargetError };
  const { result } = outcome;
  if (result.status === ExecutionStatus.Failed) return { ack: [], retryReason: RetryReason.ExecutionFailed };
  if (result.status === ExecutionStatus.TimedOut) return { ack: [], retryReason: RetryReason.ExecutionTimedOut };
  const batchIds = new Set(ids(records));
  const response = readBatchResponse(result.output, batchIds);
  if (response.kind === "invalid") {
    ctx.stats.invalidResponses++;
    ctx.emit({ type: "invalid-response", batchId, reason: response.reason });
    return { ack: [], retryReason: RetryReason.InvalidResponse };
  }
  if (response.kind === "all-succeeded") return { ack: [...batchIds] };
  return { ack: [...batchIds].filter((id) => !response.failedIds.has(id)), retryReason: RetryReason.PartialFailure };
}

/** The target input: the bare array of records, or of each record's rendered template (AWS applies it per record). */
function buildInput(config: PipeConfig, records: SqsRecord[]): { ok: true; value: unknown[] } | { ok: false; error: string } {
  if (!config.transform) return { ok: true, value: structuredClone(records) };
  const ingestionTime = new Date(config.clock.now()).toISOString();
  const value: unknown[] = [];
  for (const record of records) {
    const rendered = config.transform(record, { ...config.variables, ingestionTime });
    if (!rendered.ok) return { ok: false, error: `message ${record.messageId}: ${rendered.error}; rendered text: ${rendered.text.slice(0, 200)}` };
    value.push(rendered.value);
  }
  return { ok: true, value };
}

/** Deletes records, reporting failures; returns how many were deleted. */
async function deleteRecords(ctx: BatchContext, batchId: string, records: SqsRecord[], acknowledge = false): Promise<number> {
  if (records.length === 0) return 0;
  const { deleted, failures } = await ctx.source.delete(records);
  if (failures.length > 0) {
    ctx.stats.deleteFailures += failures.length;
    ctx.emit({ type: "delete-failed", batchId, failures });
  }
  if (acknowledge && deleted.length > 0) {
    ctx.stats.recordsAcknowledged += deleted.length;
    ctx.emit({ type: "records-acknowledged", batchId, count: deleted.length, messageIds: deleted });
  }
  return deleted.length;
}

async function leaveForRetry(ctx: BatchContext, batchId: string, records: SqsRecord[], reason: RetryReason): Promise<void> {
  ctx.stats.recordsLeftForRetry += records.length;
  ctx.emit({ type: "records-retry", batchId, count: records.length, messageIds: ids(records), reason });
  const seconds = ctx.config.retryVisibilityTimeoutSeconds;
  if (seconds === undefined) return;
  const { failed, error } = await ctx.source.changeVisibility(records, seconds);
  if (failed > 0) ctx.emit({ type: "visibility-change-failed", batchId, count: failed, error: error ?? "unknown error" });
}

function ids(records: readonly SqsRecord[]): string[] {
  return records.map((r) => r.messageId);
}
