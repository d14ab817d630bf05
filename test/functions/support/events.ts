import { randomUUID } from "node:crypto";
import type { PaymentEvent } from "../../../examples/payments/functions/types";

/** A valid event with a business key no other test uses. */
export function paymentEvent(overrides: Partial<PaymentEvent> = {}): PaymentEvent {
  const tenantId = "t1";
  const orderId = `o-${randomUUID().slice(0, 8)}`;
  return {
    businessKey: `${tenantId}#${orderId}`,
    operation: "charge",
    messageId: randomUUID(),
    receiveCount: 1,
    payload: { tenantId, orderId, amount: 1250, currency: "EUR" },
    ...overrides,
  };
}

/** The same business key and operation, delivered again as another SQS message. */
export function redelivery(event: PaymentEvent, payload: Partial<PaymentEvent["payload"]> = {}): PaymentEvent {
  return { ...event, messageId: randomUUID(), receiveCount: 2, payload: { ...event.payload, ...payload } };
}
