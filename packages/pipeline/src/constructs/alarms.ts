import { CloudwatchLogMetricFilter } from "@cdktf/provider-aws/lib/cloudwatch-log-metric-filter";
import { CloudwatchMetricAlarm, type CloudwatchMetricAlarmMetricQuery } from "@cdktf/provider-aws/lib/cloudwatch-metric-alarm";
import { SnsTopic } from "@cdktf/provider-aws/lib/sns-topic";
import { Annotations } from "cdktf";
import { Construct } from "constructs";
import { FUNCTION_ERROR_FIELD, InvocationErrorMessage, InvocationOutcome } from "@effectively-once/contract";
import { alarmDescription, type AlarmQuery, type AlarmSpec, type MetricStat } from "./alarm-spec";
import { computeAlarmSpecs } from "./alarm-specs-compute";
import { queueAlarmSpecs } from "./alarm-specs-queues";
import type { DownstreamFunction } from "./downstream-function";
import { DlqKeepalive } from "./dlq-keepalive";
import type { PipelinePipe } from "./pipe";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import type { PipelineResourceNames } from "./resource-names";
import type { StackArnScope } from "./stack-data";
import type { PipelineTables } from "./tables";
import type { PipelineWorkflow } from "./workflow";
import { alarmActionPreconditions } from "./pass-through-rules";
import { QueueEditAlert } from "./queue-edit-alert";

type MetricName = { readonly namespace: string; readonly metricName: string };

/** Where the function's metric filters publish their counts (one namespace per function). */
function functionErrorMetrics(functionName: string): { rejected: MetricName; batchFailed: MetricName } {
  const namespace = `EffectivelyOnce/${functionName}`;
  return { rejected: { namespace, metricName: "RejectedInvocations" }, batchFailed: { namespace, metricName: "BatchRecordFailures" } };
}

/**
 * A term that holds only on the wrapper's own line for an error: its message, word for word. A line's `outcome` alone
 * is no proof: work may note its own (a downstream status "failed" on an invocation that succeeded), and the team's
 * logger writes to the same log group (InvocationErrorMessage). A quoted string may hold spaces and colons, as in
 * the CDK's `FilterPattern.regexValue('$.message', '=', 'bind: address already in use')` example.
 */
const wrapperLine = (message: string): string => `$.message = "${message}"`;

/**
 * The rejections Lambda counted in `Errors`, and only those: a rejection's line carries `outcome: "rejected"`, and the
 * line of an invocation that threw its error also `functionError: true` (functions/src/invocation-log.ts). A batch's
 * rejected record has the first without the second: the batch answers it and Lambda counts no error, so subtracting
 * it would hide a real failure of the same minute. Required rather than excluded (a batch marker `NOT EXISTS`): a
 * line that does not say it threw (an older function's, another logger's) is never subtracted, so the alarm errs
 * towards paging. Syntax: CloudWatch Logs, "Filter and pattern syntax", JSON metric filter examples (`IS TRUE`) and
 * compound conditions (`&&`).
 */
function rejectedInvocationsPattern(): string {
  return `{ ${wrapperLine(InvocationErrorMessage.Rejected)} && $.outcome = "${InvocationOutcome.Rejected}" && $.${FUNCTION_ERROR_FIELD} IS TRUE }`;
}

/**
 * The transient failures Lambda did not count in `Errors`: a batch answers a failed record (`retry`) without throwing,
 * so its ERROR line (`outcome: "failed"`) lacks `functionError`. Excluded by `NOT EXISTS` rather than required by a
 * batch marker: an older function's batch record (no marker, no field) is counted too, and so is its single-record
 * failure, which Lambda counted already: counted twice, it pages as it would once (the alarm errs towards paging,
 * never towards silence). Syntax: the same page's `NOT EXISTS` example.
 */
function batchRecordFailuresPattern(): string {
  return `{ ${wrapperLine(InvocationErrorMessage.Failed)} && $.outcome = "${InvocationOutcome.Failed}" && $.${FUNCTION_ERROR_FIELD} NOT EXISTS }`;
}

interface AlarmParts {
  names: PipelineResourceNames;
  queues: PipelineQueues;
  tables: PipelineTables;
  workflow: PipelineWorkflow;
  fn: DownstreamFunction;
  pipe: PipelinePipe;
  arns: StackArnScope;
}

/**
 * What an operator must hear about, and the means for it to be heard: the alarms (alarm-specs-*.ts), the SNS topic
 * they notify unless `alarmActions` names the actions, the DLQ keep-alive that keeps the DLQ's metrics published,
 * and the metric filters that tell the function's rejections from its failures (function-errors).
 */
export class PipelineAlarms extends Construct {
  readonly alarms: CloudwatchMetricAlarm[];
  /** The topic every alarm notifies, when `alarmActions` was left out. */
  readonly topic?: SnsTopic;
  readonly keepalive: DlqKeepalive;
  /** The rule that tells the topic of every edit of the queues' attributes (`queueEditAlert`, with the topic only). */
  readonly queueEdits?: QueueEditAlert;
  /** The specs the alarms were built from, in order. */
  readonly specs: readonly AlarmSpec[];

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: AlarmParts) {
    super(scope, id);
    if (p.alarmTopic) this.topic = new SnsTopic(this, "topic", { name: parts.names.alarmTopic });
    else if (p.alarmActions.length === 0) {
      Annotations.of(this).addWarning("IdempotentPipeline: alarmActions is [], so no alarm notifies anyone: a quarantined message can expire unseen. Leave alarmActions out (the construct creates an SNS topic) or name an action.");
    }
    const actions = this.topic ? [this.topic.arn] : [...p.alarmActions];
    if (this.topic && p.queueEditAlert) this.queueEdits = new QueueEditAlert(this, "queue-edits", { name: parts.names.queueEditRule, queueNames: [parts.names.queue, parts.names.deadLetterQueue], topic: this.topic, arns: parts.arns });
    this.keepalive = new DlqKeepalive(this, "dlq-keepalive", { names: parts.names, queues: parts.queues, arns: parts.arns, permissionsBoundary: p.permissionsBoundary });
    const functionName = parts.fn.function.functionName;
    // The construct puts these two metric filters on the function's log group, and no other: CloudWatch Logs allows 100
    // per log group (PutMetricFilter: "The maximum number of metric filters that can be associated with a log group is
    // 100"), so 98 remain for the stack's own.
    const counted = functionErrorMetrics(parts.names.functionName);
    const filters: [string, MetricName, string][] = [
      ["rejected-invocations", counted.rejected, rejectedInvocationsPattern()],
      ["batch-record-failures", counted.batchFailed, batchRecordFailuresPattern()],
    ];
    for (const [id, m, pattern] of filters) {
      new CloudwatchLogMetricFilter(this, id, {
        name: `${parts.names.functionName}-${id}`,
        logGroupName: parts.fn.logGroup.name,
        pattern,
        metricTransformation: { namespace: m.namespace, name: m.metricName, value: "1", unit: "Count" },
      });
    }
    this.specs = [
      ...queueAlarmSpecs(p, { queue: parts.queues.queue.name, deadLetterQueue: parts.queues.deadLetterQueue.name }),
      ...computeAlarmSpecs(p, {
        stateMachineArn: parts.workflow.stateMachine.arn,
        functionName,
        pipeName: parts.pipe.pipe.name,
        ledgerTable: parts.tables.ledger.name,
        idempotencyTable: parts.tables.idempotency.name,
        ...counted,
      }),
    ];
    // An action's region the synth could not check (the region comes from the environment at plan time).
    const precondition = alarmActionPreconditions(p, parts.arns.region);
    this.alarms = this.specs.map(
      (s) =>
        new CloudwatchMetricAlarm(this, s.id, {
          alarmName: parts.names.alarm(s.id),
          ...alarmFields(s),
          alarmActions: actions,
          okActions: s.okActions ? actions : [],
          ...(precondition.length > 0 ? { lifecycle: { precondition } } : {}),
        }),
    );
  }
}

/** The alarm's fields for hashicorp/aws: one metric, or `metric_query` entries for math. */
function alarmFields(s: AlarmSpec) {
  const common = {
    alarmDescription: alarmDescription(s),
    evaluationPeriods: s.evaluationPeriods,
    datapointsToAlarm: s.datapointsToAlarm,
    threshold: s.threshold,
    comparisonOperator: s.comparison,
    treatMissingData: s.treatMissingData,
  };
  if (!Array.isArray(s.metric)) {
    const m = s.metric as MetricStat;
    return { ...common, namespace: m.namespace, metricName: m.metricName, dimensions: m.dimensions, statistic: m.stat, period: s.period };
  }
  const metricQuery: CloudwatchMetricAlarmMetricQuery[] = (s.metric as readonly AlarmQuery[]).map((q) =>
    "metric" in q
      ? { id: q.id, returnData: false, metric: { namespace: q.metric.namespace, metricName: q.metric.metricName, dimensions: q.metric.dimensions, stat: q.metric.stat, period: s.period } }
      : { id: q.id, expression: q.expression, label: q.label, returnData: q.returnData, period: s.period },
  );
  return { ...common, metricQuery };
}
