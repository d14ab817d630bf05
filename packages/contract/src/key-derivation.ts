/**
 * How a message becomes its keys: the ledger's `[businessKey, operation]` with its payload hash, and the function's
 * Powertools key (md5 of the same pair) validated on the same hash. Change any part and a resend of a message that
 * was already applied (a redelivery, a producer's retry, a DLQ redrive) gets a new key, which neither layer
 * remembers: it is applied again.
 *
 * The renderer writes this record into the state machine definition's top-level `Comment` (the one free-form
 * field ASL has at the top), so it travels with the resource that applies it: in the synthesized stack, in every
 * plan and in the deployed state. `npm run plan` compares the record of the baseline with this one
 * (packages/cli/src/terraform/review). One explicit record, rather than parsing the Decode expression back into its parts,
 * names each change exactly and survives any rewording of the definition.
 */
import { createHash } from "node:crypto";
import { CANONICAL_FORM_TEXT } from "./decode-jsonata";
import type { FieldRule } from "./field-rules";

export interface KeyDerivation {
  /** The ledger's sort key, and the second half of the Powertools key. */
  readonly operation: string;
  /** `businessKey.expression`: JSONata over the body yielding the key parts. */
  readonly businessKey: string;
  /** Fields covered by the payload hash, sorted (their order never mattered). */
  readonly payloadFields: readonly string[];
  /** Every checked field's rule (`effectiveRules`): a rule decides which bodies yield a key at all. */
  readonly fieldRules: Readonly<Record<string, FieldRule>>;
  /** Digest of the JSONata that writes the key text and hashes the payload text (`CANONICAL_FORM_TEXT`). */
  readonly canonicalForm: string;
}

/** Digest of the current canonical form; `test/contract/key-derivation.test.ts` pins it, so a change is deliberate. */
export const CANONICAL_FORM = `sha256:${createHash("sha256").update(CANONICAL_FORM_TEXT).digest("hex").slice(0, 16)}`;

/** What precedes the record in the definition's Comment. */
const KEY_DERIVATION_MARKER = " Key derivation (compared by `npm run plan`, see docs/upgrading.md): ";

export function keyDerivation(spec: {
  readonly operation: string;
  readonly keyExpression: string;
  readonly payloadFields: readonly string[];
  readonly fieldRules: readonly (readonly [string, FieldRule])[];
}): KeyDerivation {
  return {
    operation: spec.operation,
    businessKey: spec.keyExpression,
    payloadFields: [...new Set(spec.payloadFields)].sort(),
    fieldRules: Object.fromEntries([...spec.fieldRules].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    canonicalForm: CANONICAL_FORM,
  };
}

/** The definition's Comment with the record appended. */
export function commentWithKeyDerivation(comment: string, record: KeyDerivation): string {
  return `${comment}${KEY_DERIVATION_MARKER}${JSON.stringify(record)}`;
}

function isRecord(value: unknown): value is KeyDerivation {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return typeof r.operation === "string" && typeof r.businessKey === "string" && Array.isArray(r.payloadFields) && typeof r.fieldRules === "object" && r.fieldRules !== null && typeof r.canonicalForm === "string";
}

/** The record in a state machine definition (parsed, or its JSON text); undefined when it holds none. */
export function readKeyDerivation(definition: unknown): KeyDerivation | undefined {
  let parsed = definition;
  if (typeof definition === "string") {
    try {
      parsed = JSON.parse(definition);
    } catch {
      return undefined;
    }
  }
  const comment = (parsed as { Comment?: unknown } | null)?.Comment;
  if (typeof comment !== "string") return undefined;
  const at = comment.lastIndexOf(KEY_DERIVATION_MARKER);
  if (at < 0) return undefined;
  try {
    const record: unknown = JSON.parse(comment.slice(at + KEY_DERIVATION_MARKER.length));
    return isRecord(record) ? record : undefined;
  } catch {
    return undefined;
  }
}

/** One part of the derivation that differs, as a reviewer reads it. */
export interface KeyDerivationChange {
  readonly part: string;
  readonly before: string;
  readonly after: string;
}

/** A rule's JSON with its keys sorted, so the order they were written in does not count as a change. */
const shown = (rule: FieldRule | undefined) => (rule === undefined ? "(none)" : JSON.stringify(rule, Object.keys(rule).sort()));

/** Every part that differs between two records, in a fixed order; [] when they derive the same keys. */
export function keyDerivationChanges(before: KeyDerivation, after: KeyDerivation): KeyDerivationChange[] {
  const changes: KeyDerivationChange[] = [];
  if (before.operation !== after.operation) changes.push({ part: "operation", before: before.operation, after: after.operation });
  if (before.businessKey !== after.businessKey) changes.push({ part: "businessKey.expression", before: before.businessKey, after: after.businessKey });
  if (JSON.stringify(before.payloadFields) !== JSON.stringify(after.payloadFields)) {
    changes.push({ part: "payloadFields", before: before.payloadFields.join(", "), after: after.payloadFields.join(", ") });
  }
  for (const field of [...new Set([...Object.keys(before.fieldRules), ...Object.keys(after.fieldRules)])].sort()) {
    const [b, a] = [before.fieldRules[field], after.fieldRules[field]];
    if (shown(b) !== shown(a)) changes.push({ part: `fieldRules.${field}`, before: shown(b), after: shown(a) });
  }
  if (before.canonicalForm !== after.canonicalForm) changes.push({ part: "canonical form", before: before.canonicalForm, after: after.canonicalForm });
  return changes;
}
