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

export function downstreamLambdaLines(ctx: CostContext, paths: Paths): CostLine[] {
  const fn = ctx.config.function;
  const invocations = sumOver(ctx, paths, (p) => p.downstreamInvocations);
  // Billed duration is rounded up to 1 ms once per invocation; the Powertools share is then split off it.
  const billedMs = Math.ceil(ctx.a.functionMs);
  const layerMs = Math.min(ctx.a.functionIdempotencyMs, billedMs);
  const gbSeconds = (ms: number) => invocations * (fn.memoryMb / 1024) * (ms / 1000);
  const priceId = fn.architecture === "arm64" ? "lambda.arm64.gbSecond" : "lambda.x86_64.gbSecond";
  return [
    line(ctx.book, Service.Lambda, `${fn.name} requests`, "lambda.request", invocations, Quantity.Requests, `${fmt(invocations)} invocations (new keys only)`, Owner.SideEffect),
    line(ctx.book, Service.Lambda, `${fn.name} duration: Powertools idempotency (${fn.architecture})`, priceId, gbSeconds(layerMs), Quantity.GbSeconds,
      `${fmt(invocations)} × ${fn.memoryMb} MB × ${layerMs} ms of its ${billedMs} ms`),
    line(ctx.book, Service.Lambda, `${fn.name} duration: side effect (${fn.architecture})`, priceId, gbSeconds(billedMs - layerMs), Quantity.GbSeconds,
      `${fmt(invocations)} × ${fn.memoryMb} MB × ${billedMs - layerMs} ms of its ${billedMs} ms`, Owner.SideEffect),
  ];
}

export function downstreamLogLine(ctx: CostContext, paths: Paths): CostLine {
  const fn = ctx.config.function;
  const invocations = sumOver(ctx, paths, (p) => p.downstreamInvocations);
  const perInvocation = invocationLogBytes(fn, ctx.a.functionInfoLines, ctx.a.functionLogLineBytes, ctx.a.functionLogBytesOverride, ctx.a);
  return line(ctx.book, Service.Logs, `${fn.name} logs (${fn.applicationLogLevel})`, "logs.ingestion", invocations * perInvocation, Quantity.Bytes, `${fmt(invocations)} invocations × ${perInvocation} B`);
}
