import type { MessageProfile } from "@effectively-once/pipeline";
import { REFUSED_CURRENCY } from "./identity";

const CURRENCIES = ["EUR", "USD", "GBP"] as const;

/**
 * Payments streams for the tools: one order per (`runId`, `index`) with a seeded amount (1.00-500.00 in cents) and
 * currency; a conflict charges one cent more; a rejected message asks for the currency the downstream refuses.
 */
export const profile: MessageProfile = {
  unique(index, runId, random) {
    return {
      tenantId: `t-${runId}`,
      orderId: `o-${index}`,
      amount: 100 + Math.floor(random() * 49_901),
      currency: CURRENCIES[Math.floor(random() * CURRENCIES.length)],
    };
  },
  conflict(body) {
    return { ...body, amount: Number(body.amount) + 1 };
  },
  rejected(index, runId) {
    return { tenantId: `t-${runId}`, orderId: `rejected-${index}`, amount: 500, currency: REFUSED_CURRENCY };
  },
};
