/**
 * The invoices domain: one issued invoice per customer and invoice number. Plain data with no runtime import, so the
 * stack, the function and the message profile share it.
 */
import type { PipelineDomain } from "@effectively-once/pipeline";

export const INVOICES_DOMAIN: PipelineDomain = {
  // Ledger key `["<customerId>","<invoiceNumber>"]`.
  businessKey: { expression: "[customerId, invoiceNumber]", requiredFields: ["customerId", "invoiceNumber"] },
  operation: "issue",
  payloadFields: ["lines", "currency", "dueDate"],
  fieldRules: {
    customerId: { type: "string", maxLength: 64 },
    invoiceNumber: { type: "string", pattern: "^INV-[0-9]{1,12}$" },
    // Checked line by line by the function (top-level rules cannot see inside an array); numbers stay exact.
    lines: { type: "any" },
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
    dueDate: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$" },
  },
};

/** At most this many lines per invoice. */
export const MAX_LINES = 100;
