import type { Assumptions } from "./assumptions";
import { sqsPrice } from "./line";
import { unitPrice, type PriceBook } from "./prices";
import type { DeployedConfig } from "./types";
import { customMetricCount } from "./fate-metrics";

export interface FixedCost {
  readonly item: string;
  readonly usdPerMonth: number;
  readonly detail: string;
}

/** Costs that do not scale with messages: idle polling of an empty queue, alarms, the dashboard. */
export function fixedMonthlyCosts(config: DeployedConfig, book: PriceBook, a: Assumptions): FixedCost[] {
  const secondsPerMonth = 730 * 3600;
  const idleReceives = (a.idlePollers * secondsPerMonth) / a.idleWaitSeconds;
  return [
    {
      item: "SQS empty receives while idle",
      usdPerMonth: idleReceives * unitPrice(book, sqsPrice(config)),
      detail: `${a.idlePollers} pollers × one ${a.idleWaitSeconds} s long poll each = ${Math.round(idleReceives).toLocaleString("en-US")} requests/month when the queue is empty (upper bound; busy polls are in the per-message lines)`,
    },
    {
      item: "CloudWatch alarms",
      usdPerMonth: config.alarmMetrics * unitPrice(book, "cloudwatch.alarm"),
      detail: `${config.alarms} standard-resolution alarms reading ${config.alarmMetrics} metrics (a metric-math alarm is billed per metric it reads)`,
    },
    {
      item: "Metric filters' metrics (alarms)",
      usdPerMonth: config.customMetrics * unitPrice(book, "cloudwatch.metric"),
      detail: `${config.customMetrics} custom metric(s): the function's log metric filters that function-errors reads (rejected invocations, batch record failures; the first 10 of an account are free)`,
    },
    {
      item: "DLQ keep-alive",
      usdPerMonth: config.scheduleRunsPerMonth * unitPrice(book, sqsPrice(config)),
      detail: `${Math.round(config.scheduleRunsPerMonth)} GetQueueAttributes a month from EventBridge Scheduler (its first 14 million invocations a month are free)`,
    },
    {
      item: "CloudWatch custom metrics (fates)",
      usdPerMonth: customMetricCount() * unitPrice(book, "cloudwatch.metric"),
      detail: `${customMetricCount()} metrics (the function's Applied, Duplicate, SendToEffectMs; the workflow's RecognisedDuplicate, Retried, and Quarantined per reason; one service value); billed by the hour while they receive values`,
    },
    {
      item: "CloudWatch dashboard",
      usdPerMonth: config.dashboards * unitPrice(book, "cloudwatch.dashboard"),
      detail: `${config.dashboards} dashboard(s); the first 3 of an account are free`,
    },
  ];
}
