/**
 * The model's business key of a valid body, from the declaration alone (never the pipeline's evaluator): RFC 8785 of
 * an array of strings and safe integers is JSON.stringify's text (lone surrogates escaped as \udXXX). One identity is
 * one key whatever JSON type carries it: a part of a field whose rule takes a string or an integer is its text (42
 * and "42" are one order). The parts are the key terms in order (a drawn domain's, domain/key-terms.ts), default the key
 * fields; required fields the terms do not read are appended: the declaration names the identity.
 */

/** One part of a key as a domain declares its identity: a required field's value, or a literal. */
export type OracleKeyTerm = { readonly field: string } | { readonly literal: string | number };

export function modelKey(
  o: Readonly<Record<string, unknown>>,
  keyParts: readonly string[],
  keyTerms: readonly OracleKeyTerm[] | undefined,
  fields: Readonly<Record<string, { readonly type: string }>>,
): string {
  const own = (f: string): unknown => (Object.prototype.hasOwnProperty.call(o, f) ? o[f] : undefined);
  const identity = (f: string): unknown => {
    const rule = Object.prototype.hasOwnProperty.call(fields, f) ? fields[f] : undefined;
    const value = own(f);
    return rule?.type === "string-or-integer" && typeof value === "number" ? String(value) : value;
  };
  const terms = keyTerms ?? keyParts.map((field) => ({ field }));
  const read = new Set(terms.flatMap((t) => ("field" in t ? [t.field] : [])));
  return JSON.stringify([...terms.map((t) => ("field" in t ? identity(t.field) : t.literal)), ...keyParts.filter((f) => !read.has(f)).map(identity)]);
}
