import type { MessageProfile } from "../../src/app/profile";

const TENANTS = ["acme", "globex", "initech", "umbrella", "hooli"] as const;
const CURRENCIES = ["EUR", "USD", "GBP"] as const;

/** Sample and load messages of the payments example: one charge per tenant and order. */
export const profile: MessageProfile = {
  unique: (index, runId, random) => ({
    tenantId: TENANTS[index % TENANTS.length],
    orderId: `${runId}-${String(index + 1).padStart(6, "0")}`,
    amount: 100 + Math.floor(random() * 99_900),
    currency: CURRENCIES[Math.floor(random() * CURRENCIES.length)],
  }),
  conflict: (body) => ({ ...body, amount: Number(body.amount) + 1 }),
  // Well-formed, so it reaches the function; the example's downstream refuses the "no currency" code for good.
  rejected: (index, runId) => ({ tenantId: "initech", orderId: `${runId}-refused-${index}`, amount: 500, currency: "XXX" }),
};
