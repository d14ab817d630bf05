/**
 * AWS/SQS metrics from the local SQS, one sample a minute, with SQS's active-queue rule: "All metrics emit
 * non-negative values only when the queue is active" (SQS Developer Guide, "Available CloudWatch metrics for Amazon
 * SQS"), and a queue is active "for up to six hours from the last activity (i.e., any API call)" (SQS Developer
 * Guide, "Monitoring Amazon SQS queues using CloudWatch"). The conservative reading: a queue that saw no API call for
 * six hours publishes nothing, whatever it holds. A redrive's move is no call on the DLQ.
 */
import type { MetricStore } from "./metric-store";

/** SQS's activity window. */
const SQS_ACTIVE_MS = 6 * 3600 * 1000;

interface QueueSnapshot {
  name: string;
  lastActivity: number;
  sent: number;
  visible: number;
  notVisible: number;
  delayed: number;
  oldestAgeSeconds?: number;
}

/** Reads the local SQS's queue counters (its local-only route) and publishes what CloudWatch would hold. */
export class SqsMetrics {
  private readonly sentBefore = new Map<string, number>();

  constructor(private readonly endpoint: string) {}

  async sample(store: MetricStore, at: number): Promise<void> {
    const response = await fetch(`${this.endpoint}/__local/queue-metrics`, { method: "POST" });
    if (!response.ok) throw new Error(`local SQS metrics: HTTP ${response.status}`);
    const { queues } = (await response.json()) as { queues: QueueSnapshot[] };
    for (const q of queues) {
      const sent = q.sent - (this.sentBefore.get(q.name) ?? 0);
      this.sentBefore.set(q.name, q.sent);
      if (at - q.lastActivity > SQS_ACTIVE_MS) continue;
      const put = (metricName: string, value: number) => store.put({ namespace: "AWS/SQS", metricName, dimensions: [["QueueName", q.name]], value, at });
      put("ApproximateNumberOfMessagesVisible", q.visible);
      put("ApproximateNumberOfMessagesNotVisible", q.notVisible);
      put("ApproximateNumberOfMessagesDelayed", q.delayed);
      put("NumberOfMessagesSent", sent);
      // Reported while the queue holds a message.
      if (q.oldestAgeSeconds !== undefined) put("ApproximateAgeOfOldestMessage", q.oldestAgeSeconds);
    }
  }
}
