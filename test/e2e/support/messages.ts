import { businessKeyText } from "@effectively-once/contract";
/** Message bodies of the payments example, and the keys the pipeline derives from them. */

export interface PaymentBody {
  readonly tenantId: string;
  readonly orderId: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: string;
  readonly [field: string]: unknown;
}

/** A valid payment body; `fields` replace or add fields (e.g. a different amount). */
export function payment(tenantId: string, orderId: string, fields: Record<string, unknown> = {}): PaymentBody {
  return { tenantId, orderId, amount: 1250, currency: "EUR", ...fields };
}

/** The business key the stack's key expression (`[tenantId, orderId]`) gives: canonical JSON of the parts. */
export function businessKeyOf(body: PaymentBody): string {
  return businessKeyText([body.tenantId, body.orderId]);
}

/** The downstream idempotency key (the effects table's `pk`): the contract's one rule. */
