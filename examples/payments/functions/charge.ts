import { randomUUID } from "node:crypto";
import {
  EffectJournal,
  effectKey,
  type PipelineEvent,
  type PipelineHandlerOptions,
  type SideEffectContext,
} from "@effectively-once/pipeline/handler";
import { REFUSED_CURRENCY } from "../identity";

/** The parsed SQS body; the pipeline's field rules guarantee these fields. Other fields pass through. */
export interface PaymentPayload {
  readonly tenantId: string;
  readonly orderId: string;
  /** Minor units (cents), a positive integer. */
  readonly amount: number;
  /** ISO 4217 code, three upper-case letters. */
  readonly currency: string;
  readonly [field: string]: unknown;
}

/** The function's result; Powertools stores it and returns it for duplicates. */
export interface PaymentResult {
  readonly businessKey: string;
  readonly operation: string;
  readonly chargeId: string;
  /** What the downstream did with the first run: `applied`, or `replayed` when it had the charge already. */
  readonly outcome: string;
  readonly amount: number;
  readonly currency: string;
}

/**
 * The side effect: charge the stand-in payments API once per `[tenantId, orderId]#charge`. The same amount and
 * currency again get the stored charge back; another amount or currency is a `DownstreamConflictError`
 * (`payload-mismatch`); currency XXX is refused for good (`rejected`).
 */
export async function charge(event: PipelineEvent<PaymentPayload>, context: SideEffectContext<EffectJournal>): Promise<PaymentResult> {
  const { amount, currency } = event.payload;
  const key = effectKey(event.businessKey, event.operation);
  const journal = context.resources;
  if (currency === REFUSED_CURRENCY) {
    await journal.refuse(
      { effectKey: key, messageId: event.messageId },
      `downstream refuses charges in ${REFUSED_CURRENCY} (no currency); this call asked for ${amount} ${currency}`,
    );
  }
  const receipt = await journal.apply({
    effectKey: key,
    messageId: event.messageId,
    // The canonical hash of amount and currency: 10 = 10.0, whatever the field order.
    fingerprint: event.payloadHash,
    attributes: { chargeId: `ch_${randomUUID()}`, amount, currency },
  });
  const { chargeId } = receipt.attributes;
  context.note({ outcome: receipt.outcome, chargeId });
  return { businessKey: event.businessKey, operation: event.operation, chargeId, outcome: receipt.outcome, amount: receipt.attributes.amount, currency: receipt.attributes.currency };
}

/** What `handler.ts` deploys (and the simulation runs): the charge on an effect journal. */
export const chargeFunction: PipelineHandlerOptions<PaymentPayload, PaymentResult, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  sideEffect: charge,
};
