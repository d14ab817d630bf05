import { GetMetricDataCommand, type CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { OutputName } from "@effectively-once/contract";
import { readAlarmStates, type AlarmReport } from "./alarm-states";
import { awsCall } from "./aws-errors";
import { listDlq } from "./dlq-list";
import { requireOutput } from "./outputs";
import { findStuckClaims, findStuckPowertoolsRecords, type ScanBudget, type ScanReport, type StuckClaim, type StuckPowertoolsRecord } from "./stuck-claims";
import type { OpsContext } from "./types";

/** A queue's approximate counts, as GetQueueAttributes reports them. */
export interface QueueDepth {
  readonly url: string;
  readonly visible: number;
  readonly inFlight: number;
  readonly delayed: number;
}

/** The source queue: its depth and the age of its oldest message. */
export interface SourceQueueStatus extends QueueDepth {
  /** ApproximateAgeOfOldestMessage (seconds), the latest minute CloudWatch has; undefined with `ageNote` when unknown. */
  readonly oldestAgeSeconds?: number;
  readonly ageNote?: string;
}

/** The dead-letter queue: its depth, its messages by reason, and when SQS deletes the oldest one. */
export interface DlqStatus extends QueueDepth {
  /** Messages per reason among the ones scanned (`scanned`; `truncated` when the DLQ holds more). */
  readonly byReason: Readonly<Record<string, number>>;
  readonly scanned: number;
  readonly truncated: boolean;
  readonly retentionSeconds: number;
  /** The oldest scanned message: when SQS sent it to (or, moved by the redrive, first enqueued it on) a queue, and when the DLQ deletes it. */
  readonly oldest?: { readonly messageId: string; readonly reason: string; readonly sentAt: number; readonly expiresAt: number };
}

/** What `pipeline-ops status` shows (its `--json` document). */
export interface PipelineStatus {
  readonly source: SourceQueueStatus;
  readonly dlq: DlqStatus;
  readonly alarms: AlarmReport;
  readonly stuckClaims: ScanReport<StuckClaim>;
  readonly stuckPowertoolsRecords?: ScanReport<StuckPowertoolsRecord>;
  /** One sentence per thing that needs a person; empty when none does (the exit code says which). */
  readonly attention: readonly string[];
}

/** How much `status` reads: DLQ messages and table items at most. */
export interface StatusOptions extends ScanBudget {
  /** DLQ messages to scan at most (default 100). */
  readonly maxDlqMessages?: number;
  readonly holdSeconds?: number;
  readonly keyExpression?: string;
}

async function depth(ctx: OpsContext, url: string, what: string, extra: string[] = []): Promise<{ depth: QueueDepth; attributes: Record<string, string> }> {
  const { Attributes = {} } = await awsCall(`reading the ${what}'s attributes`, { service: "SQS", endpoint: ctx.endpoints?.sqs, resource: `the ${what} ${url}` }, () =>
    ctx.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed", ...(extra as "MessageRetentionPeriod"[])],
      }),
    ),
  );
  const attributes: Record<string, string> = { ...Attributes };
  const n = (name: string) => Number(attributes[name] ?? 0);
  return { depth: { url, visible: n("ApproximateNumberOfMessages"), inFlight: n("ApproximateNumberOfMessagesNotVisible"), delayed: n("ApproximateNumberOfMessagesDelayed") }, attributes };
}

/**
 * SQS has no attribute for the oldest message's age, and receiving from the source queue would take messages from
 * the pipe (and count a receive against maxReceiveCount): the age is CloudWatch's `ApproximateAgeOfOldestMessage`.
 */
async function oldestAge(ctx: OpsContext, cloudwatch: CloudWatchClient | undefined, url: string): Promise<Pick<SourceQueueStatus, "oldestAgeSeconds" | "ageNote">> {
  if (!cloudwatch) return { ageNote: "age: not available locally (CloudWatch's ApproximateAgeOfOldestMessage)" };
  const queueName = url.slice(url.lastIndexOf("/") + 1);
  const end = new Date(ctx.now());
  const result = await awsCall("reading the source queue's age (cloudwatch:GetMetricData)", { service: "CloudWatch", resource: `the queue ${queueName}'s metrics` }, () =>
    cloudwatch.send(
      new GetMetricDataCommand({
        StartTime: new Date(end.getTime() - 15 * 60_000),
        EndTime: end,
        ScanBy: "TimestampDescending",
        MetricDataQueries: [{ Id: "age", MetricStat: { Metric: { Namespace: "AWS/SQS", MetricName: "ApproximateAgeOfOldestMessage", Dimensions: [{ Name: "QueueName", Value: queueName }] }, Period: 60, Stat: "Maximum" } }],
      }),
    ),
  );
  const latest = result.MetricDataResults?.[0]?.Values?.[0];
  // SQS publishes only while the queue is active (an API call in the last six hours): no datapoint is not "empty".
  return latest === undefined ? { ageNote: "age: no datapoint in the last 15 min (SQS publishes only for an active queue)" } : { oldestAgeSeconds: latest };
}

/** Everything `pipeline-ops status` shows, read in one pass. Read-only: the DLQ scan puts back what it holds. */
export async function readStatus(ctx: OpsContext, cloudwatch: CloudWatchClient | undefined, options: StatusOptions = {}): Promise<PipelineStatus> {
  const sourceUrl = requireOutput(ctx, OutputName.QueueUrl);
  const dlqUrl = requireOutput(ctx, OutputName.DlqUrl);
  const source = await depth(ctx, sourceUrl, "source queue");
  const age = await oldestAge(ctx, cloudwatch, sourceUrl);
  const dlqDepth = await depth(ctx, dlqUrl, "DLQ", ["MessageRetentionPeriod"]);
  const retentionSeconds = Number(dlqDepth.attributes.MessageRetentionPeriod ?? 0);
  const listed = await listDlq(ctx, { max: options.maxDlqMessages, holdSeconds: options.holdSeconds, keyExpression: options.keyExpression });
  // A standard DLQ keeps a moved message's original enqueue time, and its retention counts from it (SentTimestamp).
  const oldestEntry = listed.messages.filter((m) => m.sentAt !== undefined).reduce<(typeof listed.messages)[number] | undefined>((a, m) => (a === undefined || m.sentAt! < a.sentAt! ? m : a), undefined);
  const dlq: DlqStatus = {
    ...dlqDepth.depth,
    byReason: listed.byReason,
    scanned: listed.scanned,
    truncated: listed.truncated,
    retentionSeconds,
    ...(oldestEntry ? { oldest: { messageId: oldestEntry.messageId, reason: oldestEntry.reason, sentAt: oldestEntry.sentAt!, expiresAt: oldestEntry.sentAt! + retentionSeconds * 1000 } } : {}),
  };
  const alarms = await readAlarmStates(ctx, cloudwatch);
  const stuckClaims = await findStuckClaims(ctx, options);
  const stuckPowertoolsRecords = await findStuckPowertoolsRecords(ctx, options);
  const sourceStatus = { ...source.depth, ...age };
  return { source: sourceStatus, dlq, alarms, stuckClaims, ...(stuckPowertoolsRecords ? { stuckPowertoolsRecords } : {}), attention: attentionOf(dlq, alarms, stuckClaims) };
}

function attentionOf(dlq: DlqStatus, alarms: AlarmReport, stuck: ScanReport<StuckClaim>): string[] {
  const out: string[] = [];
  const held = Math.max(dlq.visible + dlq.inFlight, dlq.scanned);
  if (held > 0) out.push(`the DLQ holds ${held} message(s)${dlq.oldest ? `; the oldest is deleted at ${new Date(dlq.oldest.expiresAt).toISOString()}` : ""}`);
  if (alarms.evaluated) for (const a of alarms.alarms.filter((x) => x.state === "ALARM")) out.push(`alarm ${a.name} is in ALARM`);
  if (stuck.found.length > 0) out.push(`${stuck.found.length} claim(s) IN_PROGRESS past their lease`);
  return out;
}
