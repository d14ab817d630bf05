// The deployed function: the package's handler wrapper around the team's side effect, a refund recorded in the
// effect journal under the effect key (a replay with the same payload returns the stored refund; another payload
// under the same key is a conflict, quarantined as `payload-mismatch`).
import { createPipelineHandler, EffectJournal, effectKey, PermanentError } from "@effectively-once/pipeline/handler";

interface ParcelReturn {
  readonly carrier: string;
  readonly returnNumber: string;
  readonly amountCents: number;
  readonly reason: string;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<ParcelReturn, { refundId: string }, EffectJournal>({
  setup: EffectJournal.fromEnvironment,
  sideEffect: async (event, { resources: refunds }) => {
    // A well-formed return the team refuses for good: quarantined as `rejected`, never retried.
    if (event.payload.reason === "never-delivered") throw new PermanentError("a parcel never delivered is not refunded");
    const receipt = await refunds.apply({
      effectKey: effectKey(event.businessKey, event.operation),
      messageId: event.messageId,
      fingerprint: event.payloadHash,
      attributes: { refundId: `refund-${event.payload.returnNumber}`, amountCents: event.payload.amountCents },
    });
    return { refundId: String(receipt.attributes.refundId) };
  },
});
