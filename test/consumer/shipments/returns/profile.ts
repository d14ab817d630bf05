// Returns streams for effectively-once soak and bench: one return per (runId, index); a conflict refunds one cent more;
// a refused one is a return the team does not refund (a parcel never delivered).
import type { MessageProfile } from "@effectively-once/pipeline";

export const profile: MessageProfile = {
  unique: (index, runId, random) => ({ carrier: "acme", returnNumber: `${runId}-${index}`, amountCents: 100 + Math.floor(random() * 50_000), reason: "damaged" }),
  conflict: (body) => ({ ...body, amountCents: Number(body.amountCents) + 1 }),
  rejected: (index, runId) => ({ carrier: "acme", returnNumber: `${runId}-r${index}`, amountCents: 500, reason: "never-delivered" }),
};
