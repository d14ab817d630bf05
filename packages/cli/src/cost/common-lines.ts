import type { CostContext } from "./context";
import { fmt } from "./format";
import { chunks, line, Owner, Quantity, Service, sqsPrice, type CostLine } from "./line";
import { ITEMS_STORED_PER_NEW_KEY, Path, PATHS, Table, type PathProfile } from "./paths";
import { dynamoUnits, invocationLogBytes, storageGbMonths } from "./usage";

/**
 * Lines both designs share: the producer, the DLQ, DynamoDB, the downstream function and its logs. The effects table
 * and the function's own requests and work are the side effect; its Powertools calls and its logs are the pipeline's.
 */

type Paths = Readonly<Record<Path, PathProfile>>;

/** Σ over paths of (what one delivery on the path does) × (deliveries on the path). */
export function sumOver(ctx: CostContext, paths: Paths, pick: (p: PathProfile) => number): number {
  return PATHS.reduce((sum, path) => sum + pick(paths[path]) * ctx.deliveries[path], 0);
}

export function producerLine(ctx: CostContext): CostLine {
  const perSend = ctx.a.producerMessagesPerSend;
  const sends = ctx.scenario.messages / perSend;
  const perCall = chunks(perSend * ctx.a.messageBodyBytes);
  return line(ctx.book, Service.Sqs, "SendMessage (producer)", sqsPrice(ctx.config), sends * perCall, Quantity.Requests, `${fmt(sends)} sends × ${perCall} chunk(s) of 64 KB`);
}

export function dlqLine(ctx: CostContext, paths: Paths): CostLine {
  const sends = sumOver(ctx, paths, (p) => p.dlqSends);
  const perSend = chunks(ctx.a.messageBodyBytes);
  return line(ctx.book, Service.Sqs, "SendMessage to the DLQ (quarantine)", sqsPrice(ctx.config), sends * perSend, Quantity.Requests, `${fmt(sends)} quarantined × ${perSend} chunk(s)`);
}

export function dynamoLines(ctx: CostContext, paths: Paths): CostLine[] {
  const units = dynamoUnits(paths, ctx.deliveries, ctx.a);
  const lines: CostLine[] = [];
  for (const table of tablesOf(ctx.config)) {
    const { wru, rru } = units[table];
    const owner = tableOwner(table);
    if (wru > 0) lines.push(line(ctx.book, Service.DynamoDB, `${table} writes`, "dynamodb.write", wru, Quantity.Units, `${fmt(wru)} WRU (items < 1 KB: 1 WRU per write, failed conditions included)`, owner));
    if (rru > 0) lines.push(line(ctx.book, Service.DynamoDB, `${table} reads`, "dynamodb.read", rru, Quantity.Units, `${fmt(rru)} RRU (consistent reads of items < 4 KB)`, owner));
  }
  return lines;
}

/** The stack's tables: the effects table only when the function's downstream is one (the side effect's own calls). */
function tablesOf(config: CostContext["config"]): Table[] {
  return [Table.Ledger, Table.Idempotency, ...(config.tables.effects ? [Table.Effects] : [])];
}

/** The ledger and the Powertools table are the pipeline's; the effects table stands in for the user's downstream. */
function tableOwner(table: Table): Owner {
  return table === Table.Effects ? Owner.SideEffect : Owner.Pipeline;
}

export function storageLines(ctx: CostContext): CostLine[] {
  const newKeys = ctx.deliveries[Path.NewKey];
  const retention = ctx.config.retentionSeconds;
  const lines: CostLine[] = [];
  for (const owner of [Owner.Pipeline, Owner.SideEffect]) {
    const tables = tablesOf(ctx.config).filter((t) => tableOwner(t) === owner);
    if (tables.length === 0) continue;
    const items = ITEMS_STORED_PER_NEW_KEY.filter((i) => tables.includes(i.table)).length;
    const storage = storageGbMonths(newKeys, retention, ctx.a, tables);
    lines.push(line(ctx.book, Service.DynamoDB, `storage until TTL (${tables.join(", ")})`, "dynamodb.storage", storage, Quantity.GbMonths,
      `${fmt(newKeys)} keys × ${items} item(s) kept ${fmt(retention / 86400)} days`, owner));
    const withPitr = tables.filter((t) => ctx.config.tables[t]?.pointInTimeRecovery);
    if (withPitr.length) {
      const pitr = storageGbMonths(newKeys, retention, ctx.a, withPitr);
      lines.push(line(ctx.book, Service.DynamoDB, `point-in-time recovery (${withPitr.join(", ")})`, "dynamodb.pitr", pitr, Quantity.GbMonths, `on ${withPitr.join(", ")}`, owner));
    }
  }
  return lines;
}

/**
 * The function's invocations: one per claimed record, or (batchInvocation) one per batch that claimed a record, each
 * billed for its records' waves (records at once up to the Map's concurrency) plus a little per further record.
 */
export function downstreamInvocations(ctx: CostContext, paths: Paths): { readonly records: number; readonly invocations: number; readonly billedMs: number; readonly how: string } {
  const records = sumOver(ctx, paths, (p) => p.downstreamInvocations);
  const a = ctx.a;
  if (!ctx.config.stateMachine.batchInvocation || records === 0) return { records, invocations: records, billedMs: Math.ceil(a.functionMs), how: "invocations (new keys only)" };
  const batch = ctx.scenario.batchSize;
  const executions = ctx.totalDeliveries / batch;
  // A batch invokes when any of its records is claimed: of `batch` records, each a new key with this share.
  const claimedShare = Math.min(1, records / ctx.totalDeliveries);
  const invocations = Math.min(records, executions * (1 - (1 - claimedShare) ** batch));
  const perBatch = records / invocations;
  const waves = Math.ceil(perBatch / Math.max(1, Math.min(ctx.config.stateMachine.maxConcurrency, batch)));
  const billedMs = Math.ceil(waves * a.functionMs + a.batchRecordOverheadMs * (perBatch - 1));
  return { records, invocations, billedMs, how: `batch invocations of ${fmt(perBatch)} records (${waves} wave(s) × ${a.functionMs} ms + ${a.batchRecordOverheadMs} ms a further record = ${billedMs} ms billed)` };
}

export function downstreamLambdaLines(ctx: CostContext, paths: Paths): CostLine[] {
  const fn = ctx.config.function;
  const { records, invocations, billedMs, how } = downstreamInvocations(ctx, paths);
  // Billed duration is rounded up to 1 ms once per invocation; the Powertools share is then split off it, in the
  // proportion it has of one record's time (a batch's records overlap, so their shares do not add up).
  const recordMs = Math.ceil(ctx.a.functionMs);
  const layerMs = Math.min(ctx.a.functionIdempotencyMs, recordMs);
  const allGbSeconds = invocations * (fn.memoryMb / 1024) * (billedMs / 1000);
  const layerShare = allGbSeconds * (layerMs / recordMs);
  const priceId = fn.architecture === "arm64" ? "lambda.arm64.gbSecond" : "lambda.x86_64.gbSecond";
  return [
    line(ctx.book, Service.Lambda, `${fn.name} requests`, "lambda.request", invocations, Quantity.Requests, `${fmt(invocations)} ${how}`, Owner.SideEffect),
    line(ctx.book, Service.Lambda, `${fn.name} duration: Powertools idempotency (${fn.architecture})`, priceId, layerShare, Quantity.GbSeconds,
      invocations === records ? `${fmt(invocations)} × ${fn.memoryMb} MB × ${layerMs} ms of its ${billedMs} ms` : `${fmt(invocations)} batches × ${fn.memoryMb} MB × ${billedMs} ms × ${layerMs}/${recordMs} (its share of a record's time)`),
    line(ctx.book, Service.Lambda, `${fn.name} duration: side effect (${fn.architecture})`, priceId, allGbSeconds - layerShare, Quantity.GbSeconds,
      invocations === records ? `${fmt(invocations)} × ${fn.memoryMb} MB × ${billedMs - layerMs} ms of its ${billedMs} ms` : `${fmt(invocations)} batches × ${fn.memoryMb} MB × ${billedMs} ms, less the Powertools share`, Owner.SideEffect),
  ];
}

/**
 * The function's application log: one line per invocation (a record), or (batchInvocation) one summary line per batch
 * invocation with an entry per record (functions/src/invocation-log.ts); platform lines per invocation. The fate
 * metrics on those lines are priced apart (fate-metrics.ts).
 */
export function downstreamLogLine(ctx: CostContext, paths: Paths): CostLine {
  const fn = ctx.config.function;
  const a = ctx.a;
  const { records, invocations } = downstreamInvocations(ctx, paths);
  const noPlatform = { ...a, platformLogBytesPerInvocation: 0 };
  const platform = a.functionLogBytesOverride !== null ? 0 : invocationLogBytes(fn, 0, 0, null, a);
  const item = `${fn.name} logs (${fn.applicationLogLevel})`;
  if (invocations === records) {
    const perRecord = invocationLogBytes(fn, a.functionInfoLines, a.functionLogLineBytes, a.functionLogBytesOverride, noPlatform);
    return line(ctx.book, Service.Logs, item, "logs.ingestion", records * (perRecord + platform), Quantity.Bytes, `${fmt(invocations)} invocations × ${perRecord + platform} B`);
  }
  // The summary line once a batch (with its event overhead), each record's entry on it (no overhead of its own).
  const perBatch = invocationLogBytes(fn, a.functionInfoLines, a.batchLogLineBytes, a.functionLogBytesOverride, noPlatform);
  const perEntry = a.functionLogBytesOverride !== null ? 0 : invocationLogBytes(fn, a.functionInfoLines, a.batchLogRecordBytes, null, { ...noPlatform, logEventOverheadBytes: 0 });
  const lines = perBatch > 0 ? 1 : 0;
  const how = `${fmt(invocations)} batch invocations × ${lines} summary line(s) of ${perBatch} B + ${platform} B platform, + ${fmt(records)} records × ${perEntry} B on it (${fmt(records / invocations)} records a batch)`;
  return line(ctx.book, Service.Logs, item, "logs.ingestion", invocations * (perBatch + platform) + records * perEntry, Quantity.Bytes, how);
}
