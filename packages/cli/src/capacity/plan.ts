import { DEFAULT_ASSUMPTIONS, type Assumptions } from "../cost/assumptions";
import { Table } from "../cost/paths";
import { unitsPerMessage, type Figures } from "./figures";
import { LAMBDA_RATE_FACTOR, type Quota, type QuotaId, type Quotas } from "./quotas";
import type { CapacitySettings } from "./settings";

/**
 * Little's law per part: what is in flight = arrival rate × time in the part. Every demand is linear in the rate,
 * so each part is one number per msg/s (`perRate`), and the highest sustainable rate is the smallest limit ÷ perRate.
 */
export interface PartLoad {
  readonly id: string;
  readonly name: string;
  readonly quota: Quota;
  /** The limit that applies (the quota, or the function's reserved concurrency). */
  readonly limit: number;
  readonly unit: string;
  /** Demand per message per second. */
  readonly perRate: number;
  readonly demand: number;
  readonly utilisation: number;
  readonly how: string;
}

export interface Remedy {
  readonly part: PartLoad;
  /** "increase": ask AWS (or raise a prop); "shard": the limit is per stack and not adjustable; "hard": neither helps. */
  readonly kind: "increase" | "shard" | "hard";
  /** The value to ask for (demand × (1 + headroom), rounded up); null for "hard". */
  readonly request: number | null;
  readonly text: string;
}

export interface CapacityPlan {
  readonly rate: number;
  readonly headroom: number;
  readonly parts: readonly PartLoad[];
  readonly saturatesFirst: PartLoad;
  /** The highest rate every part sustains with the quotas as given (msg/s). */
  readonly maxSustainableRate: number;
  readonly remedies: readonly Remedy[];
  /** Stacks (sharded by business key) the per-stack limits need at `rate`; 1 = one stack is enough. */
  readonly stacks: number;
  /** Ramp-up from idle and bursts: not steady-state limits, printed beside them. */
  readonly ramps: readonly { readonly name: string; readonly value: string }[];
}

export function planCapacity(settings: CapacitySettings, figures: Figures, quotas: Quotas, rate: number, headroom = 0.2, a: Assumptions = DEFAULT_ASSUMPTIONS): CapacityPlan {
  const { config } = settings;
  const mix = figures.mix;
  const batch = config.pipe.batchSize;
  const deliveries = 1 + mix.retryRatio;
  const batchesPerMsg = deliveries / batch;
  const execS = figures.executionMsPerBatch / 1000;
  const pollerS = execS + figures.pipeOverheadMs / 1000;
  // One per claimed record, or (batchInvocation) one per batch: full batches of new keys claim something in each.
  const claimedPerMsg = 1 - mix.duplicateRatio - mix.quarantineRatio;
  const invocationsPerMsg = settings.batchInvocation ? Math.min(claimedPerMsg, batchesPerMsg) : claimedPerMsg;
  const invocationMs = settings.batchInvocation ? figures.batchFunctionMs : figures.functionMs;
  const invocations = settings.batchInvocation ? `${round(invocationsPerMsg, 3)} invocations (one per batch)` : `${round(invocationsPerMsg, 3)} invocations (new keys)`;
  const units = unitsPerMessage(mix, { ...a, functionMs: figures.functionMs });
  const scale = figures.dynamoCallScale;
  const fnLimit = settings.reservedConcurrency ?? quotas["lambda.concurrency"].value;

  const part = (id: string, name: string, quotaId: QuotaId, perRate: number, how: string, limit = quotas[quotaId].value): PartLoad => {
    const quota = quotas[quotaId];
    return { id, name, quota, limit, unit: quota.unit, perRate, demand: perRate * rate, utilisation: (perRate * rate) / limit, how };
  };
  const parts: PartLoad[] = [
    part("pipe", "Pipe: batches in flight", "pipes.concurrentBatches", batchesPerMsg * pollerS,
      `rate × ${deliveries} deliveries ÷ batch ${batch} × (${fmtMs(figures.executionMsPerBatch)} execution + ${fmtMs(figures.pipeOverheadMs)} receive/delete)`),
    part("sfn-rate", "StartSyncExecution rate", "sfn.syncStartRate", batchesPerMsg, `rate × ${deliveries} ÷ batch ${batch} executions/s`),
    part("sfn-concurrency", "Synchronous Express executions in flight", "sfn.syncConcurrency", batchesPerMsg * execS, `executions/s × ${fmtMs(figures.executionMsPerBatch)}`),
    part("lambda", settings.reservedConcurrency === null ? "Lambda: account concurrency" : "Lambda: reserved concurrency", "lambda.concurrency",
      invocationsPerMsg * (invocationMs / 1000), `rate × ${invocations} × ${fmtMs(invocationMs)}`, fnLimit),
    // Not Little's law: a rate against a rate. Short functions hit it long before concurrency (45 ms × 10/s < 1).
    part("lambda-rate", "Lambda: invocations per second (account)", "lambda.invocationRate", invocationsPerMsg,
      `rate × ${invocations}; limit ${LAMBDA_RATE_FACTOR} × account concurrency`),
  ];
  for (const table of Object.values(Table)) {
    // No effects table: the side effect's own calls go elsewhere (an HTTP API), outside this plan.
    const name = config.tables[table]?.name;
    if (name === undefined) continue;
    if (units[table].wru > 0) parts.push(part(`dynamodb-${table}-write`, `DynamoDB ${name}: writes`, "dynamodb.tableWriteUnits", units[table].wru * scale, `rate × ${round(units[table].wru * scale, 3)} WRU per message`));
    if (units[table].rru > 0) parts.push(part(`dynamodb-${table}-read`, `DynamoDB ${name}: reads`, "dynamodb.tableReadUnits", units[table].rru * scale, `rate × ${round(units[table].rru * scale, 3)} RRU per message`));
  }
  // A hot key's items share one partition in each table; the table writing most per message bounds it.
  const present = Object.values(Table).filter((t) => config.tables[t] !== undefined).map((t) => units[t]);
  const hotWrites = Math.max(...present.map((u) => u.wru)) * scale;
  parts.push(part("hot-key-write", "DynamoDB hot key: one partition's writes", "dynamodb.partitionWriteUnits", mix.hotKeyShare * hotWrites,
    `rate × ${mix.hotKeyShare} on the hottest key × ${round(hotWrites, 3)} WU per message (the busiest table)`));
  const hotReads = Math.max(...present.map((u) => u.rru)) * scale;
  if (hotReads > 0) parts.push(part("hot-key-read", "DynamoDB hot key: one partition's reads", "dynamodb.partitionReadUnits", mix.hotKeyShare * hotReads, `rate × ${mix.hotKeyShare} × ${round(hotReads, 3)} RU per message`));
  if (settings.fifo === undefined) {
    parts.push(part("sqs", "SQS: messages in flight", "sqs.inFlight", deliveries * pollerS + mix.retryRatio * settings.visibilityTimeoutSeconds,
      `rate × (${deliveries} × ${fmtMs(pollerS * 1000)} in the pipe + ${mix.retryRatio} retries × ${settings.visibilityTimeoutSeconds} s visibility timeout)`));
  } else {
    parts.push(...fifoParts(part, settings, { deliveries, batch, pollerS, retryRatio: mix.retryRatio }));
  }

  const saturatesFirst = parts.reduce((worst, p) => (p.perRate / p.limit > worst.perRate / worst.limit ? p : worst));
  const maxSustainableRate = Math.floor(saturatesFirst.limit / saturatesFirst.perRate);
  // Only a per-stack limit AWS does not raise forces more stacks; account limits are shared by every stack.
  const forcing = parts.filter((p) => PER_STACK.includes(p.quota.scope) && !p.quota.adjustable);
  const stacks = Math.max(1, ...forcing.map((p) => Math.ceil((p.demand * (1 + headroom)) / p.limit)));
  const remedies = parts
    .filter((p) => p.utilisation > 1 / (1 + headroom))
    .sort((x, y) => y.utilisation - x.utilisation)
    .map((p) => remedy(p, headroom, settings, stacks));
  return { rate, headroom, parts, saturatesFirst, maxSustainableRate, remedies, stacks, ramps: ramps(parts, quotas, rate, batchesPerMsg, stacks) };
}

type PartOf = (id: string, name: string, quotaId: QuotaId, perRate: number, how: string) => PartLoad;

/**
 * A FIFO source queue: calls per second per API action (the pipe's ReceiveMessage and DeleteMessageBatch take up to a
 * batch each; the producers' SendMessage one message each unless they batch) and its in-flight messages, where a
 * record to retry holds the rest of its group in the batch (at worst the whole batch) for a visibility timeout.
 */
function fifoParts(part: PartOf, settings: CapacitySettings, m: { deliveries: number; batch: number; pollerS: number; retryRatio: number }): PartLoad[] {
  const rate: QuotaId = settings.fifo?.highThroughput ? "sqs.fifoHighThroughputApiRate" : "sqs.fifoApiRate";
  const calls = m.deliveries / m.batch;
  return [
    part("sqs-fifo-send", "SQS FIFO: SendMessage calls", rate, 1, "rate × 1 SendMessage per message (producers sending SendMessageBatch of 10 need a tenth)"),
    part("sqs-fifo-receive", "SQS FIFO: ReceiveMessage calls", rate, calls, `rate × ${m.deliveries} deliveries ÷ batch ${m.batch} (one receive per batch at full load)`),
    part("sqs-fifo-delete", "SQS FIFO: DeleteMessageBatch calls", rate, calls, `rate × ${m.deliveries} deliveries ÷ batch ${m.batch}`),
    part("sqs", "SQS: messages in flight", "sqs.fifoInFlight", m.deliveries * m.pollerS + m.retryRatio * m.batch * settings.visibilityTimeoutSeconds,
      `rate × (${m.deliveries} × ${fmtMs(m.pollerS * 1000)} in the pipe + ${m.retryRatio} retries × up to ${m.batch} records of a group held × ${settings.visibilityTimeoutSeconds} s visibility timeout)`),
  ];
}

const PER_STACK: readonly string[] = ["per pipe", "per queue", "per table"];

/** What to do about one part over its limit; a per-stack part carries only its stack's share once sharded. */
function remedy(p: PartLoad, headroom: number, settings: CapacitySettings, stacks: number): Remedy {
  const perStack = PER_STACK.includes(p.quota.scope);
  const need = (perStack ? p.demand / stacks : p.demand) * (1 + headroom);
  const of = perStack && stacks > 1 ? ` in each of the ${stacks} stacks` : "";
  if (p.quota.scope === "per partition (one key)") {
    return { part: p, kind: "hard", request: null, text: `${p.quota.name} is a hard limit that no request or shard lifts (one key lives in one stack's one partition): spread that key's traffic` };
  }
  if (p.quota.id === "sqs.fifoApiRate") {
    return { part: p, kind: "shard", request: null, text: `${p.quota.name} (${fmt(p.limit)} ${p.unit}) rises only in high-throughput mode: set highThroughputFifo: true, or shard into ${stacks} stacks by business key` };
  }
  if (!p.quota.adjustable) {
    return { part: p, kind: "shard", request: null, text: `${p.quota.name} (${fmt(p.limit)} ${p.unit} ${p.quota.scope}) lists no increase: shard into ${stacks} stacks by business key` };
  }
  if (need <= p.limit) return { part: p, kind: "shard", request: null, text: `covered by sharding: ${fmt(need / (1 + headroom))} ${p.unit}${of}` };
  const request = niceUp(need);
  if (p.id === "lambda-rate") {
    const concurrency = niceUp(need / LAMBDA_RATE_FACTOR);
    return { part: p, kind: "increase", request: concurrency, text: `request Lambda concurrent executions ≥ ${fmt(concurrency)} (the account's invocation rate is ${LAMBDA_RATE_FACTOR} × it; ${fmt(need)}/s needed)` };
  }
  if (p.id === "lambda" && settings.reservedConcurrency !== null) {
    return { part: p, kind: "increase", request, text: `raise function.reservedConcurrency to ${fmt(request)} and the account's Lambda concurrent executions to at least ${fmt(request + 100)} (100 stay unreserved)` };
  }
  return { part: p, kind: "increase", request, text: `request ${p.quota.name} ≥ ${fmt(request)} ${p.unit}${of} (default ${fmt(p.limit)}, ${p.quota.scope})` };
}

function ramps(parts: readonly PartLoad[], quotas: Quotas, rate: number, batchesPerMsg: number, stacks: number) {
  const need = (id: string) => parts.find((p) => p.id === id)?.demand ?? 0;
  const lambdaSteps = Math.ceil(need("lambda") / quotas["lambda.scaleUpPer10s"].value);
  const pipeMinutes = Math.max(0, need("pipe") / stacks - 5) / quotas["pipes.scaleUpPerMinute"].value;
  const spike = 2 * rate * batchesPerMsg - quotas["sfn.syncStartRate"].value;
  return [
    { name: "Lambda from idle to the concurrency needed", value: `${lambdaSteps * 10} s (${fmt(quotas["lambda.scaleUpPer10s"].value)} environments per 10 s)` },
    { name: `Pipe from 5 readers to the batches needed${stacks > 1 ? " (each stack's pipe)" : ""}`, value: `${round(pipeMinutes * 60, 0)} s (${fmt(quotas["pipes.scaleUpPerMinute"].value)} more per minute)` },
    { name: "A new on-demand table (warm at first) takes the busiest table's writes", value: warm(parts, quotas["dynamodb.newTableWarmWriteUnits"].value, stacks) },
    { name: "A spike to 2× the rate drains the StartSyncExecution bucket in", value: spike > 0 ? `${round(quotas["sfn.syncStartBurst"].value / spike, 1)} s` : "never (2× stays under the refill rate)" },
  ];
}

/** A new table serves its warm throughput at once and adapts above it; pre-warming (WarmThroughput) avoids the wait. */
function warm(parts: readonly PartLoad[], warmUnits: number, stacks: number): string {
  const busiest = parts.filter((p) => p.quota.id === "dynamodb.tableWriteUnits").reduce((a, b) => (b.demand > a.demand ? b : a));
  const units = busiest.demand / stacks;
  return units <= warmUnits
    ? `at once (${fmt(units)} ≤ ${fmt(warmUnits)} WU/s warm)`
    : `only after it adapts: ${fmt(units)} WU/s > ${fmt(warmUnits)} warm; pre-warm the tables before launch`;
}

/** Rounds up to 2 significant digits: quota requests are round numbers. */
export function niceUp(value: number): number {
  if (value <= 0) return 0;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(value)) - 1);
  return Math.ceil(value / step) * step;
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));
const fmt = (v: number) => Math.round(v).toLocaleString("en-US");
const fmtMs = (ms: number) => `${round(ms, 1)} ms`;
