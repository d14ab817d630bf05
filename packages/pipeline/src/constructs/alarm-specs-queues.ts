/**
 * The queues' alarms. SQS publishes its metrics only while a queue is active: "All metrics emit non-negative values
 * only when the queue is active" (SQS Developer Guide, "Available CloudWatch metrics for Amazon SQS"), and a queue
 * counts as active "for up to six hours from the last activity (i.e., any API call)" (SQS Developer Guide, "Monitoring
 * Amazon SQS queues using CloudWatch"). A DLQ nobody touches goes silent, so:
 * - the DLQ keep-alive (dlq-keepalive.ts) calls GetQueueAttributes on it every hour, keeping it active;
 * - `dlq-depth` treats missing data as `ignore` ("the current alarm state is maintained"): even if the keep-alive
 *   stops, an alarm that saw a message stays in ALARM until a call shows the DLQ empty;
 * - `dlq-arrivals` fires per minute in which the DLQ grew or received a SendMessage, also while `dlq-depth` is
 *   already in ALARM: `NumberOfMessagesSent` counts the workflow's quarantines; the growth of visible + in-flight
 *   messages counts what the redrive moves too (SQS's DLQ guide: a message moved after a failed processing attempt
 *   is not captured by `NumberOfMessagesSent`);
 * - `dlq-expiry` reads the oldest message's age against the DLQ's retention (alarm-thresholds.ts).
 */
import { dlqExpiryDeadlineText, dlqExpiryThresholdSeconds, IN_FLIGHT_THRESHOLD } from "./alarm-thresholds";
import { OPS, type AlarmSpec, type MetricStat } from "./alarm-spec";
import { SQS_IN_FLIGHT_MAX } from "./aws-limits";
import type { ResolvedPipelineProps } from "./props";

const sqs = (queueName: string, metricName: string, stat: MetricStat["stat"]): MetricStat => ({ namespace: "AWS/SQS", metricName, dimensions: { QueueName: queueName }, stat });

export function queueAlarmSpecs(p: ResolvedPipelineProps, queues: { queue: string; deadLetterQueue: string }): AlarmSpec[] {
  const dlq = queues.deadLetterQueue;
  return [
    {
      id: "dlq-depth",
      severity: "page",
      meaning: "The DLQ holds quarantined or retries-exhausted messages; it stays in ALARM while any is there, however long the DLQ is idle.",
      firstCommand: `${OPS} dlq list`,
      metric: sqs(dlq, "ApproximateNumberOfMessagesVisible", "Maximum"),
      period: 60,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      threshold: 0,
      comparison: "GreaterThanThreshold",
      treatMissingData: "ignore",
      okActions: true,
    },
    {
      id: "dlq-arrivals",
      severity: "page",
      meaning: "New messages reached the DLQ in the last minute (a quarantine, or a redrive after maxReceiveCount); fires again for every new minute of arrivals.",
      firstCommand: `${OPS} dlq list`,
      metric: [
        { id: "sent", metric: sqs(dlq, "NumberOfMessagesSent", "Sum") },
        { id: "visible", metric: sqs(dlq, "ApproximateNumberOfMessagesVisible", "Maximum") },
        { id: "inflight", metric: sqs(dlq, "ApproximateNumberOfMessagesNotVisible", "Maximum") },
        { id: "held", expression: "visible + inflight", label: "messages held", returnData: false },
        { id: "arrivals", expression: "MAX([sent, DIFF(held)])", label: "messages that arrived", returnData: true },
      ],
      period: 60,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      threshold: 0,
      comparison: "GreaterThanThreshold",
      treatMissingData: "notBreaching",
      okActions: false,
    },
    {
      id: "dlq-expiry",
      severity: "critical",
      meaning: `A quarantined message is about to be deleted by the DLQ's retention and lost: this alarm ${dlqExpiryDeadlineText(p)}.`,
      firstCommand: `${OPS} dlq list`,
      metric: sqs(dlq, "ApproximateAgeOfOldestMessage", "Maximum"),
      period: 300,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      threshold: dlqExpiryThresholdSeconds(p),
      comparison: "GreaterThanOrEqualToThreshold",
      // The keep-alive keeps the age published while a message waits; no message, no age: nothing to lose.
      treatMissingData: "notBreaching",
      okActions: true,
    },
    {
      id: "oldest-message-age",
      severity: "page",
      meaning: `The oldest message in the source queue has waited ${p.oldestMessageAgeAlarmSeconds} s or more: the pipeline is stalled or too slow.`,
      firstCommand: `${OPS} dlq list (then the pipe's state and the function's errors)`,
      metric: sqs(queues.queue, "ApproximateAgeOfOldestMessage", "Maximum"),
      period: 60,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      threshold: p.oldestMessageAgeAlarmSeconds,
      comparison: "GreaterThanOrEqualToThreshold",
      treatMissingData: "notBreaching",
      okActions: true,
    },
    {
      id: "messages-in-flight",
      severity: "page",
      meaning: `Messages in flight on the source queue reached ${IN_FLIGHT_THRESHOLD} of SQS's ${SQS_IN_FLIGHT_MAX}; at the limit the pipe's receives fail and the queue backs up.`,
      firstCommand: `${OPS} dlq list (then lower the pipe's concurrency or the function's duration)`,
      metric: sqs(queues.queue, "ApproximateNumberOfMessagesNotVisible", "Maximum"),
      period: 60,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      threshold: IN_FLIGHT_THRESHOLD,
      comparison: "GreaterThanOrEqualToThreshold",
      treatMissingData: "notBreaching",
      okActions: true,
    },
  ];
}
