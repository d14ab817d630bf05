import type { CloudEvent } from "@effectively-once/local-cloud";
import type { Delivery, DeliveryLog } from "./target";

/** Builds the per-message delivery log from the local cloud's pipe events. */
export function createDeliveryLog(subscribe: (listener: (event: CloudEvent) => void) => () => void): DeliveryLog & { stop(): void } {
  const byMessage = new Map<string, Delivery[]>();
  const byBatch = new Map<string, Delivery[]>();
  const inBatch = (batchId: string, messageIds: readonly string[]) =>
    (byBatch.get(batchId) ?? []).filter((d) => messageIds.includes(d.messageId));

  const stop = subscribe((event) => {
    switch (event.type) {
      case "batch-received": {
        const deliveries = event.messageIds.map((messageId) => ({ batchId: event.batchId, messageId, receivedAt: event.at, batch: event.messageIds }));
        byBatch.set(event.batchId, deliveries);
        for (const delivery of deliveries) byMessage.set(delivery.messageId, [...(byMessage.get(delivery.messageId) ?? []), delivery]);
        return;
      }
      case "records-acknowledged":
        for (const delivery of inBatch(event.batchId, event.messageIds)) delivery.result = "acknowledged";
        return;
      case "records-retry":
        for (const delivery of inBatch(event.batchId, event.messageIds)) {
          delivery.result = "retry";
          delivery.retryReason = event.reason;
        }
        return;
      case "batch-completed":
        for (const delivery of byBatch.get(event.batchId) ?? []) delivery.completedAt = event.at;
        byBatch.delete(event.batchId);
        return;
      default:
        return;
    }
  });
  return { of: (messageId) => byMessage.get(messageId) ?? [], stop };
}
