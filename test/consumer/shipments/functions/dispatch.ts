// The deployed function: the package's handler wrapper around the team's side effect, a call to the carrier's HTTP
// API (no effect journal). The effect key goes as the Idempotency-Key header, so the carrier itself deduplicates too.
import { createPipelineHandler, effectKey, PermanentError } from "@effectively-once/pipeline/handler";

interface Shipment {
  readonly carrier: string;
  readonly trackingNumber: string;
  readonly weightGrams: number;
  readonly destination: string;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<Shipment, { labelId: string }, string>({
  setup: () => {
    const url = process.env.CARRIER_URL;
    if (!url) throw new Error("CARRIER_URL is not set: the stack passes the carrier API's address");
    return url;
  },
  sideEffect: async (event, { resources: carrierUrl }) => {
    // A well-formed shipment the carrier refuses for good: quarantined as `rejected`, never retried.
    if (event.payload.destination === "Atlantis") throw new PermanentError("the carrier does not deliver to Atlantis");
    const response = await fetch(`${carrierUrl}/labels`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": effectKey(event.businessKey, event.operation) },
      body: JSON.stringify({ messageId: event.messageId, trackingNumber: event.payload.trackingNumber, weightGrams: event.payload.weightGrams }),
    });
    if (!response.ok) throw new Error(`carrier answered ${response.status}`); // transient: retried
    return (await response.json()) as { labelId: string };
  },
});
