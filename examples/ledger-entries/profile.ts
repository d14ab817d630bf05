import type { MessageProfile } from "@effectively-once/pipeline";
import { REFUSED_AMOUNT } from "./identity";

const CURRENCIES = ["EUR", "USD"] as const;

/**
 * Entry streams for the tools: entry `e-<index>` of one of three accounts of the run (so each account's group holds
 * several entries), a seeded signed amount; a conflict posts one unit more; a rejected entry has amount 0. The group
 * of an entry is its account.
 */
export const profile: MessageProfile = {
  unique(index, runId, random) {
    const amount = (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 99_999));
    return { accountId: `acc-${runId}-${index % 3}`, entryId: `e-${index}`, amount, currency: CURRENCIES[Math.floor(random() * CURRENCIES.length)] };
  },
  conflict(body) {
    return { ...body, amount: Number(body.amount) + 1 };
  },
  rejected(index, runId) {
    return { accountId: `acc-${runId}-0`, entryId: `e-${index}`, amount: REFUSED_AMOUNT, currency: "EUR" };
  },
  groupOf: (body) => String(body.accountId),
};
