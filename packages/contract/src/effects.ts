/**
 * The effect journal: how a downstream that honours an idempotency key records what it did, so tools and tests can
 * tell "called twice" from "applied twice" for any domain. The handler wrapper's journal (`functions/effect-journal.ts`)
 * writes it; `tools/observe`, `ops trace` and the e2e suite read it. Items live in the table named by the stack
 * output `effects_table_name` (the `EffectJournalTable` construct), which the function finds in `EFFECTS_TABLE_NAME`:
 *
 * - `pk = <effect key>`, `sk = "EFFECT"`: the effect as applied, at most one per key (a conditional put), with
 *   `messageId`, `appliedAt` (ISO time), `fingerprint` (what was applied, to detect a conflicting replay) and the
 *   domain's own attributes;
 * - `pk = <effect key>`, `sk = "CALL#<ISO time>#<call id>"`: one per call, with `messageId` and `outcome`.
 *
 * Both carry `expiresAt` (epoch seconds, the table's TTL).
 */
export const EFFECT_SK = "EFFECT";
export const CALL_SK_PREFIX = "CALL#";

/** The function's environment variable holding the journal's table name. */
export const EFFECTS_TABLE_ENV = "EFFECTS_TABLE_NAME";

/** Attributes the journal writes itself on every item; an effect's own attributes may not use these names. */
export const JOURNAL_ATTRIBUTES = ["pk", "sk", "messageId", "appliedAt", "fingerprint", "outcome", "expiresAt"] as const;

/** What one call to the downstream did. */
export const CallOutcome = {
  /** This call applied the effect. */
  Applied: "applied",
  /** The effect was already applied with the same fingerprint; the stored result is returned. */
  Replayed: "replayed",
  /** The key holds an effect with another fingerprint: refused. */
  Conflict: "conflict",
  /** The downstream refused the request for good. */
  Refused: "refused",
} as const;
export type CallOutcome = (typeof CallOutcome)[keyof typeof CallOutcome];

/** The key the function hands the downstream: business identity + intent, never the SQS message id. */
export function effectKey(businessKey: string, operation: string): string {
  return `${businessKey}#${operation}`;
}
