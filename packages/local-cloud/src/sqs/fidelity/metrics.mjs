// What CloudWatch would read of each queue, for the local alarms (packages/local-cloud/src/alarms/sqs-metrics.ts):
// the time of the last API call naming it (SQS publishes a queue's metrics only while it is active, "for up to six
// hours from the last activity (i.e., any API call)"), the messages SendMessage(Batch) added (a redrive's move is no
// send: SQS leaves it out of the DLQ's NumberOfMessagesSent), and its counts and oldest age at the moment of asking.
// The age of a message the redrive moved counts from the move, as the DLQ's ApproximateAgeOfOldestMessage does
// (`movedAt`, set by redrive.mjs). Read through a local-only route (`POST /__local/queue-metrics`), which is itself
// no SQS call and so makes no queue active.
import { queueOfCall } from "./queue-policy.mjs";

/** After an action ran: the queue it named is active now; a send adds its messages to the queue's count. */
export function recordCall(action, body, store, result) {
  const queue = queueOfCall(action, body ?? {}, store);
  if (!queue) return;
  queue.lastActivity = Date.now();
  if (action === "SendMessage") queue.sentCount = (queue.sentCount ?? 0) + 1;
  if (action === "SendMessageBatch") queue.sentCount = (queue.sentCount ?? 0) + (Array.isArray(result?.Successful) ? result.Successful.length : 0);
}

function snapshot(queue, now) {
  const visible = queue.messages.length + [...(queue.fifoMessages?.values() ?? [])].reduce((n, group) => n + group.length, 0);
  const held = [...queue.messages, ...[...queue.inflightMessages.values()].map((entry) => entry.message), ...[...(queue.fifoMessages?.values() ?? [])].flat()];
  const oldest = held.reduce((min, m) => Math.min(min, m.movedAt ?? m.sentTimestamp), Infinity);
  return {
    name: queue.name,
    lastActivity: queue.lastActivity ?? queue.createdTimestamp * 1000,
    sent: queue.sentCount ?? 0,
    visible,
    notVisible: queue.inflightMessages.size,
    delayed: queue.delayedMessages.length + [...(queue.fifoDelayed?.values() ?? [])].reduce((n, group) => n + group.length, 0),
    oldestAgeSeconds: Number.isFinite(oldest) ? Math.max(0, Math.floor((now - oldest) / 1000)) : undefined,
  };
}

/** Adds the local-only route; call before `app.listen()`. */
export function installQueueMetrics(app, store) {
  app.post("/__local/queue-metrics", async () => {
    const now = Date.now();
    return { now, queues: [...store.queues.values()].map((queue) => snapshot(queue, now)) };
  });
}
