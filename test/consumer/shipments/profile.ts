// Shipments streams for effectively-once soak and bench: one parcel per (runId, index), a conflict weighs one gram
// more, a refused one goes where the carrier does not deliver.
import type { MessageProfile } from "@effectively-once/pipeline";

export const profile: MessageProfile = {
  unique: (index, runId, random) => ({ carrier: "acme", trackingNumber: `${runId}-${index}`, weightGrams: 1 + Math.floor(random() * 30_000), destination: "Lyon" }),
  conflict: (body) => ({ ...body, weightGrams: Number(body.weightGrams) + 1 }),
  rejected: (index, runId) => ({ carrier: "acme", trackingNumber: `${runId}-r${index}`, weightGrams: 500, destination: "Atlantis" }),
};
