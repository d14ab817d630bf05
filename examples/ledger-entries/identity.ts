/**
 * The example's business identity: one posted entry per account and entry id, on FIFO queues whose message group is
 * the account (an account's entries are applied in the order they were sent). Plain data with no runtime import, so
 * the stack, the function and the message profile share it.
 */
import type { FieldRules, PipelineDomain } from "@effectively-once/pipeline";

/** What an entry message must hold; the state machine and the function both enforce it. */
const LEDGER_FIELD_RULES: FieldRules = {
  accountId: { type: "string", maxLength: 64 },
  entryId: { type: "string", maxLength: 128 },
  // Minor units, signed: a credit or a debit.
  amount: { type: "integer" },
  currency: { type: "string", pattern: "^[A-Z]{3}$" },
};

export const LEDGER_DOMAIN: PipelineDomain = {
  businessKey: { expression: "[accountId, entryId]", requiredFields: ["accountId", "entryId"] },
  operation: "post",
  payloadFields: ["amount", "currency"],
  fieldRules: LEDGER_FIELD_RULES,
};

/** The stand-in books refuse an entry of amount 0: nothing to post (`rejected`). */
export const REFUSED_AMOUNT = 0;
