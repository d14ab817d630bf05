// The deployed function: the package's handler wrapper around the team's side effect.
import { createPipelineHandler, EffectJournal, effectKey, PermanentError } from "@effectively-once/pipeline/handler";

interface Shipment {
  readonly carrier: string;
  readonly trackingNumber: string;
  readonly weightGrams: number;
  readonly destination: string;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<Shipment, { labelId: string }, EffectJournal>({
  setup: EffectJournal.fromEnvironment,
  sideEffect: async (event, { resources: carrier }) => {
    // A well-formed shipment the carrier refuses for good: quarantined as `rejected`, never retried.
    if (event.payload.destination === "Atlantis") throw new PermanentError("the carrier does not deliver to Atlantis");
    const receipt = await carrier.apply({
      effectKey: effectKey(event.businessKey, event.operation),
      messageId: event.messageId,
      fingerprint: event.payloadHash,
      attributes: { labelId: `label-${event.payload.trackingNumber}`, weightGrams: event.payload.weightGrams },
    });
    return { labelId: receipt.attributes.labelId };
  },
});
