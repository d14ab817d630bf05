import type { MessageProfile } from "@effectively-once/pipeline";

const CURRENCIES = ["EUR", "USD", "CHF"] as const;

/**
 * Invoice streams for the tools: one invoice per (`runId`, `index`) with 1-3 seeded lines, due far in the future; a
 * conflict bills one more unit on the first line; a rejected invoice is due in the past.
 */
export const profile: MessageProfile = {
  unique(index, runId, random) {
    const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, line) => ({
      sku: `sku-${line + 1}`,
      quantity: 1 + Math.floor(random() * 5),
      unitPrice: 100 + Math.floor(random() * 9_900),
    }));
    const currency = CURRENCIES[Math.floor(random() * CURRENCIES.length)];
    return { customerId: `c-${runId}`, invoiceNumber: `INV-${index}`, lines, currency, dueDate: "2099-12-31" };
  },
  conflict(body) {
    const [first, ...rest] = body.lines as { quantity: number }[];
    return { ...body, lines: [{ ...first, quantity: first.quantity + 1 }, ...rest] };
  },
  rejected(index, runId) {
    return { customerId: `c-${runId}-late`, invoiceNumber: `INV-${index}`, lines: [{ sku: "sku-1", quantity: 1, unitPrice: 500 }], currency: "EUR", dueDate: "2000-01-01" };
  },
};
