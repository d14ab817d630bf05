import { readFileSync } from "node:fs";
import { CapacityInputError } from "./errors";

/**
 * AWS's default quotas that bound this pipeline, each with the page that states it. Where AWS states no number the
 * value is an assumption and says so (`assumption: true`); every value can be overridden (--quota, --quotas).
 */
export const QUOTA_IDS = [
  "pipes.concurrentBatches",
  "pipes.scaleUpPerMinute",
  "sfn.syncStartRate",
  "sfn.syncStartBurst",
  "sfn.syncConcurrency",
  "lambda.concurrency",
  "lambda.invocationRate",
  "lambda.scaleUpPer10s",
  "dynamodb.tableWriteUnits",
  "dynamodb.tableReadUnits",
  "dynamodb.partitionWriteUnits",
  "dynamodb.partitionReadUnits",
  "sqs.inFlight",
  "dynamodb.newTableWarmWriteUnits",
  "sqs.fifoApiRate",
  "sqs.fifoHighThroughputApiRate",
  "sqs.fifoInFlight",
] as const;
export type QuotaId = (typeof QUOTA_IDS)[number];

/** What one copy of the limit covers: sharding into more stacks helps only below the account. */
export type QuotaScope = "per pipe" | "per queue" | "per table" | "per partition (one key)" | "per account and region" | "per function";

export interface Quota {
  readonly id: QuotaId;
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly scope: QuotaScope;
  /** true: AWS takes increase requests; false: AWS calls it a hard limit or lists no increase. */
  readonly adjustable: boolean;
  /** No AWS page states this number: a configurable assumption. */
  readonly assumption: boolean;
  readonly source: { readonly url: string; readonly says: string };
  /** "default", or where an override came from. */
  readonly origin: string;
}

const SFN = "https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html";
const SFN_SAYS = "read from the stored copy of the page's earlier version (github.com/awsdocs/aws-step-functions-developer-guide, doc_source/limits-overview.md)";
const PIPES = "https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-sqs.html";
const SQS_MESSAGES = "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-messages.html";
const LAMBDA_CONCURRENCY = "https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html";
/** Lambda's account-wide invocation rate is this many times the account's concurrency (LAMBDA_CONCURRENCY). */
export const LAMBDA_RATE_FACTOR = 10;

type Entry = Omit<Quota, "id" | "origin">;

export const DEFAULT_QUOTAS: Readonly<Record<QuotaId, Entry>> = {
  "pipes.concurrentBatches": { name: "Pipe: batches in flight (SQS source)", value: 1000, unit: "batches", scope: "per pipe", adjustable: false, assumption: false,
    source: { url: PIPES, says: "The maximum number of batches that a pipe can process simultaneously is 1,000 (no increase is listed)" } },
  "pipes.scaleUpPerMinute": { name: "Pipe: scale-up of readers", value: 300, unit: "readers/minute", scope: "per pipe", adjustable: false, assumption: false,
    source: { url: PIPES, says: "reads up to five batches ... increases the number of processes that are reading batches by up to 300 more instances per minute" } },
  "sfn.syncStartRate": { name: "StartSyncExecution: refill rate", value: 6000, unit: "executions/s", scope: "per account and region", adjustable: true, assumption: true,
    source: { url: SFN, says: `no StartSyncExecution bucket is listed ("Synchronous Express execution API calls do not contribute to the existing account capacity limits ... surges in workload may be throttled"); assumed equal to Express StartExecution: bucket 6,000, refill 6,000/s; ${SFN_SAYS}` } },
  "sfn.syncStartBurst": { name: "StartSyncExecution: bucket (burst)", value: 6000, unit: "executions", scope: "per account and region", adjustable: true, assumption: true,
    source: { url: SFN, says: `as the refill rate: assumed equal to the Express StartExecution bucket (6,000); ${SFN_SAYS}` } },
  "sfn.syncConcurrency": { name: "Synchronous Express executions in flight", value: 1000, unit: "executions", scope: "per account and region", adjustable: true, assumption: false,
    source: { url: SFN, says: `"Synchronous Express Workflows concurrent executions: 1,000-3,700 (varies per region)", can be increased to tens of thousands; the planner takes the low end; ${SFN_SAYS}` } },
  "lambda.concurrency": { name: "Lambda: concurrent executions", value: 1000, unit: "environments", scope: "per account and region", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html", says: "Concurrent executions: default 1,000, can be increased up to tens of thousands (new accounts start lower)" } },
  "lambda.invocationRate": { name: "Lambda: invocation requests per second (account)", value: 10 * 1000, unit: "invocations/s", scope: "per account and region", adjustable: true, assumption: false,
    source: { url: LAMBDA_CONCURRENCY, says: `for all functions of the account, Lambda limits requests per second to 10 × the account's concurrency: 10,000/s at the default 1,000; the planner derives it from lambda.concurrency (${LAMBDA_RATE_FACTOR} ×) unless it is overridden itself, and it rises only with the account's concurrency` } },
  "lambda.scaleUpPer10s": { name: "Lambda: concurrency scaling rate", value: 1000, unit: "environments/10 s", scope: "per function", adjustable: false, assumption: false,
    source: { url: "https://docs.aws.amazon.com/lambda/latest/dg/scaling-behavior.html", says: "for each function, your concurrency scaling rate is 1,000 execution environment instances every 10 seconds" } },
  "dynamodb.tableWriteUnits": { name: "DynamoDB on-demand: table write units", value: 40000, unit: "WRU/s", scope: "per table", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html", says: "your on-demand throughput rate is bounded by 40,000 table-level read and write throughput AWS service quota ... you can request an increase" } },
  "dynamodb.tableReadUnits": { name: "DynamoDB on-demand: table read units", value: 40000, unit: "RRU/s", scope: "per table", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode-max-throughput.html", says: "bounded by 40,000 table-level read and write throughput AWS service quota" } },
  "dynamodb.partitionWriteUnits": { name: "DynamoDB: one partition's write units (a hot key)", value: 1000, unit: "WU/s", scope: "per partition (one key)", adjustable: false, assumption: false,
    source: { url: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html", says: "each individual partition is limited to 1,000 write units per second and 3,000 read units per second" } },
  "dynamodb.partitionReadUnits": { name: "DynamoDB: one partition's read units (a hot key)", value: 3000, unit: "RU/s", scope: "per partition (one key)", adjustable: false, assumption: false,
    source: { url: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html", says: "each individual partition is limited to ... 3,000 read units per second" } },
  "sqs.inFlight": { name: "SQS: in-flight messages (standard queue)", value: 120000, unit: "messages", scope: "per queue", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-queues.html", says: 'a maximum of approximately 120,000 in flight messages ... If you reach this quota while using short polling, Amazon SQS returns the OverLimit error message. If you use long polling, Amazon SQS returns no error messages ... To request a quota increase, submit a support request (the pipe long-polls: at the limit it silently gets fewer messages)' } },
  "dynamodb.newTableWarmWriteUnits": { name: "DynamoDB on-demand: a new table's warm write throughput", value: 4000, unit: "WU/s", scope: "per table", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html", says: "New on-demand tables start with a warm throughput of 12,000 read units per second and 4,000 write units per second ... adjusts automatically to higher values" } },
  // FIFO queues (fifo: true): read only for a FIFO stack. A call takes up to 10 messages, so batching multiplies the messages, not the calls.
  "sqs.fifoApiRate": { name: "SQS FIFO: calls per second per API action", value: 300, unit: "calls/s", scope: "per queue", adjustable: false, assumption: false,
    source: { url: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/troubleshooting-fifo-throttling-issues.html", says: "By default, FIFO queues support 300 transactions per second, per API action for SendMessage, ReceiveMessage, and DeleteMessage. Requests over 300 TPS get the ThrottlingException error ... batch actions ... up to 3,000 messages per second per API action (raise it with highThroughputFifo, not a request)" } },
  "sqs.fifoHighThroughputApiRate": { name: "SQS FIFO high throughput: calls per second per API action", value: 70000, unit: "calls/s", scope: "per queue", adjustable: false, assumption: false,
    source: { url: SQS_MESSAGES, says: "high throughput mode, non-batched API calls: US East (N. Virginia), US West (Oregon), and Europe (Ireland): up to 70,000 TPS; US East (Ohio) and Europe (Frankfurt): up to 19,000 TPS; lower in other regions (override it with --quota for those); spread over partitions by message group, so few groups get less" } },
  "sqs.fifoInFlight": { name: "SQS: in-flight messages (FIFO queue)", value: 120000, unit: "messages", scope: "per queue", adjustable: true, assumption: false,
    source: { url: "https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/quotas-fifo.html", says: "FIFO queues support a maximum of 120,000 in-flight messages ... Amazon SQS does not return an error, but processing may be impacted. You can request an increase (earlier versions of the page said 20,000)" } },
};

export type Quotas = Readonly<Record<QuotaId, Quota>>;

/** The defaults with overrides from a JSON file ({"lambda.concurrency": 5000, ...}) and then from --quota id=value flags. */
export function resolveQuotas(file?: string, flags: readonly string[] = []): Quotas {
  const out = {} as Record<QuotaId, Quota>;
  for (const id of QUOTA_IDS) out[id] = { id, ...DEFAULT_QUOTAS[id], origin: "default" };
  if (file !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new CapacityInputError(`--quotas ${file}: cannot read it as JSON (${(error as Error).message}); write {"lambda.concurrency": 5000}`, { cause: error });
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new CapacityInputError(`--quotas ${file}: must be a JSON object of quota id to number`);
    for (const [id, value] of Object.entries(raw)) set(out, id, value, `--quotas ${file}`);
  }
  for (const flag of flags) {
    const at = flag.indexOf("=");
    if (at < 0) throw new CapacityInputError(`--quota ${flag}: write id=value, e.g. --quota lambda.concurrency=5000`);
    set(out, flag.slice(0, at).trim(), Number(flag.slice(at + 1).replace(/_/g, "")), `--quota ${flag}`);
  }
  // The invocation rate follows the account's concurrency, as on AWS, unless it was given itself.
  const rate = out["lambda.invocationRate"];
  const concurrency = out["lambda.concurrency"];
  if (rate.origin === "default" && concurrency.origin !== "default") {
    out["lambda.invocationRate"] = { ...rate, value: LAMBDA_RATE_FACTOR * concurrency.value, origin: `${LAMBDA_RATE_FACTOR} × lambda.concurrency (${concurrency.origin})` };
  }
  return out;
}

function set(out: Record<QuotaId, Quota>, id: string, value: unknown, where: string): void {
  if (!(QUOTA_IDS as readonly string[]).includes(id)) throw new CapacityInputError(`${where}: "${id}" is not a quota the planner reads; use one of ${QUOTA_IDS.join(", ")}`);
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new CapacityInputError(`${where}: ${id} must be a number > 0`);
  out[id as QuotaId] = { ...out[id as QuotaId], value, origin: where };
}
