import { UnresolvedReferenceError } from "./errors";

/** `${aws_sqs_queue.my_queue.arn}`; Terraform writes a literal `${` as `$${`. */
const REFERENCE = /(\$?)\$\{([a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)\}/g;

/** Gives the value of one attribute of one resource, or throws {@link UnresolvedReferenceError}. */
export type AttributeLookup = (type: string, name: string, attribute: string, usedBy: string) => string;

/** Replaces every Terraform reference in a string; anything else left in `${…}` is not ours to evaluate. */
export function resolveString(text: string, lookup: AttributeLookup, usedBy: string): string {
  const resolved = text.replace(REFERENCE, (whole, escape: string, type: string, name: string, attribute: string) =>
    escape ? whole.slice(1) : lookup(type, name, attribute, usedBy),
  );
  const leftover = /(^|[^$])\$\{([^}]*)\}/.exec(resolved);
  if (leftover) {
    throw new UnresolvedReferenceError(leftover[2], "(expression)", usedBy, "only plain resource references are supported locally, not Terraform functions or variables");
  }
  return resolved;
}

/** Resolves references in every string inside a JSON-like value. */
export function resolveDeep<T>(value: T, lookup: AttributeLookup, usedBy: string): T {
  if (typeof value === "string") return resolveString(value, lookup, usedBy) as T;
  if (Array.isArray(value)) return value.map((v) => resolveDeep(v, lookup, usedBy)) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveDeep(v, lookup, usedBy)])) as T;
  }
  return value;
}

/** Every resource address (`type.name`) a value refers to, for ordering creation. */
export function referencedAddresses(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(REFERENCE)].filter((m) => !m[1]).map((m) => `${m[2]}.${m[3]}`);
}
