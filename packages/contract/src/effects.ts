/**
 * The effect journal: how a downstream that honours an idempotency key records what it did, so tools and tests can
 * tell "called twice" from "applied twice" for any domain. The handler wrapper's journal (`functions/src/effect-journal.ts`)
 * writes it; `packages/local-cloud/src/observe`, `ops trace` and the e2e suite read it. Items live in the table named by the stack
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

/**
 * An operation name: a letter, then up to 63 letters, digits, `_` or `-`. No `#`: the operation is the last segment of
 * the effect key, so the key splits unambiguously. The construct refuses another at synth; the function, in an event.
 */
export const OPERATION_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The key the function hands the downstream: business identity + intent, never the SQS message id. */
export function effectKey(businessKey: string, operation: string): string {
  return `${businessKey}#${operation}`;
}

/** One journal item read back: the applied effect of a key, or one call. */
export type JournalEntry =
  | {
      readonly kind: "effect";
      /** The effect key (`pk`). */
      readonly key: string;
      readonly messageId?: string;
      /** When it was applied (ISO 8601). */
      readonly appliedAt?: string;
      /** What was applied, to tell a conflicting replay (opaque). */
      readonly fingerprint?: unknown;
      /** The effect's own attributes: every attribute but the journal's. */
      readonly attributes: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: "call";
      readonly key: string;
      readonly messageId?: string;
      /** A {@link CallOutcome}, as written. */
      readonly outcome: string;
      /** When the call was made (ISO 8601), from its sort key. */
      readonly at: string;
      /** The call's own id, from its sort key: tells apart two calls of one millisecond. */
      readonly callId: string;
    };

const journalAttributes: ReadonlySet<string> = new Set(JOURNAL_ATTRIBUTES);

/**
 * Decodes one journal item (plain attribute values, as DynamoDB's document client or `unmarshall` gives them): the one
 * reader of the layout above, for the function, the harness and `pipeline-ops trace`. Undefined for any other item.
 */
export function decodeJournalItem(item: Readonly<Record<string, unknown>>): JournalEntry | undefined {
  const { pk, sk, messageId } = item;
  if (typeof pk !== "string" || typeof sk !== "string") return undefined;
  const message = typeof messageId === "string" ? { messageId } : {};
  if (sk === EFFECT_SK) {
    const attributes = Object.fromEntries(Object.entries(item).filter(([name]) => !journalAttributes.has(name)));
    return { kind: "effect", key: pk, ...message, ...(typeof item.appliedAt === "string" ? { appliedAt: item.appliedAt } : {}), fingerprint: item.fingerprint, attributes };
  }
  if (!sk.startsWith(CALL_SK_PREFIX)) return undefined;
  const rest = sk.slice(CALL_SK_PREFIX.length);
  const cut = rest.indexOf("#");
  return { kind: "call", key: pk, ...message, outcome: String(item.outcome), at: cut === -1 ? rest : rest.slice(0, cut), callId: cut === -1 ? "" : rest.slice(cut + 1) };
}

/** The sort key of a call item: its time, then its id, so a Query returns calls oldest first. */
export function callSortKey(atMs: number, callId: string): string {
  return `${CALL_SK_PREFIX}${new Date(atMs).toISOString()}#${callId}`;
}
