/**
 * The key expression of a drawn domain (domain/space.ts), drawn from every form a synth of this project ever
 * accepted, not only the one it accepts now: reads of the key parts (backtick paths or `$lookup`, in any order, once
 * or twice), a literal namespace part, one part as a bare value, and the impure forms: a clock (`$now()`,
 * `$millis()`), `$random()`, `$uuid()`, a misspelled read of a key part (a field `businessKey.requiredFields` does
 * not list: the producer's `order_id` for `orderId`), a normalizing function. The construct's own validation keeps
 * what it accepts (scenario/settings-space.ts `accepts`); nothing here restates its grammar. The model (oracle/model.ts) reads a
 * key as the domain declares its identity, never by evaluating the expression: the required fields' values and the
 * literals, in the expression's order, every required field the expression misses appended.
 */
import fc from "fast-check";
import type { OracleKeyTerm } from "../oracle/key";

/** One part of a drawn key expression. `part` indexes the domain's key parts (wrapped around). */
export type KeyTerm =
  | { readonly kind: "field"; readonly part: number }
  | { readonly kind: "literal"; readonly value: string | number }
  /** A read of a name the requiredFields do not list: the key part's name with a suffix. */
  | { readonly kind: "typo"; readonly part: number }
  /** A call that is not a read of the body: a clock, random, uuid, or a function of a key part. */
  | { readonly kind: "call"; readonly call: "$now()" | "$millis()" | "$random()" | "$uuid()" | "$lowercase" ; readonly part: number };

export interface KeyForm {
  /** Extra terms placed among the key part reads (each read once, in order), at drawn positions. */
  readonly extra: readonly (readonly [number, KeyTerm])[];
  /** A one-term key written as the bare value rather than a one-element array. */
  readonly bare: boolean;
}

const CALLS = ["$now()", "$millis()", "$random()", "$uuid()", "$lowercase"] as const;

const term: fc.Arbitrary<KeyTerm> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("literal" as const), value: fc.constantFrom<string | number>("v2", "#", "", 7) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("field" as const), part: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("typo" as const), part: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("call" as const), call: fc.constantFrom(...CALLS), part: fc.nat(2) }) },
);

/** Most domains keep the plain array of reads; the rest add one or two terms. */
export const keyFormArbitrary: fc.Arbitrary<KeyForm> = fc.record({
  extra: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(fc.tuple(fc.nat(3), term), { minLength: 1, maxLength: 2 }) }),
  bare: fc.boolean(),
});

/** A JSONata string literal (JSON's escapes are JSONata's). */
const literal = (s: string): string => JSON.stringify(s);

interface KeyDomain {
  readonly keyParts: readonly { readonly name: string }[];
  readonly lookup: boolean;
  readonly key?: KeyForm;
}

/** The terms in expression order: the key part reads with the extra terms inserted. A typo replaces the read it names. */
function termsOf(d: KeyDomain): KeyTerm[] {
  const n = d.keyParts.length;
  const typos = new Set((d.key?.extra ?? []).flatMap(([, t]) => (t.kind === "typo" ? [t.part % n] : [])));
  const terms: KeyTerm[] = d.keyParts.map((_, part) => (typos.has(part) ? { kind: "typo", part } : { kind: "field", part }));
  for (const [at, t] of d.key?.extra ?? []) if (t.kind !== "typo") terms.splice(Math.min(at, terms.length), 0, t);
  return terms;
}

/** The JSONata text of a drawn key expression. */
export function keyExpression(d: KeyDomain): string {
  const read = (name: string): string => (d.lookup ? `$lookup($, ${literal(name)})` : `\`${name}\``);
  const text = (t: KeyTerm): string => {
    const name = (part: number) => d.keyParts[part % d.keyParts.length].name;
    if (t.kind === "field") return read(name(t.part));
    if (t.kind === "typo") return read(`${name(t.part)}_`);
    if (t.kind === "literal") return typeof t.value === "number" ? String(t.value) : literal(t.value);
    return t.call === "$lowercase" ? `$lowercase(${read(name(t.part))})` : t.call;
  };
  const terms = termsOf(d).map(text);
  return terms.length === 1 && d.key?.bare ? terms[0] : `[${terms.join(", ")}]`;
}

/** The key as the domain declares it, for the model: the required fields' values and the literals. */
export function modelKeyTerms(d: KeyDomain): OracleKeyTerm[] {
  const name = (part: number) => d.keyParts[part % d.keyParts.length].name;
  return termsOf(d).flatMap((t): OracleKeyTerm[] => (t.kind === "field" ? [{ field: name(t.part) }] : t.kind === "literal" ? [{ literal: t.value }] : []));
}
