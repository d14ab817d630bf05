/**
 * Resolution of a stack's templates to local values, on the shared Terraform-JSON reader: every `${…}` must be a
 * reference the local cloud can give a value to; functions, variables and directives stop provisioning.
 */
import { mapTemplates, referencesIn, renderTemplate, type ResourceReference } from "../terraform-json";
import { UnresolvedReferenceError } from "./errors";

/** Gives the value of one referenced attribute, or throws {@link UnresolvedReferenceError}. */
export type AttributeLookup = (ref: ResourceReference, usedBy: string) => string;

/** `usedBy` names the resource or output in errors; `where` the string itself (defaults to `usedBy`). */
export function resolveString(text: string, lookup: AttributeLookup, usedBy: string, where = usedBy): string {
  const expression = (source: string): never => {
    throw new UnresolvedReferenceError(source.slice(2, -1).trim(), "", usedBy, "only references to resources and data sources are resolved locally, not Terraform functions or variables");
  };
  // Every callback returns a string or throws, so the template always renders.
  return renderTemplate(text, (ref) => lookup(ref, usedBy), { where, expression }) as string;
}

/** Resolves the templates of a whole block (comments and meta-arguments kept as written). */
export function resolveDeep<T>(block: T, lookup: AttributeLookup, usedBy: string): T {
  return mapTemplates(block, (text, path) => resolveString(text, lookup, usedBy, path), usedBy);
}

/** Every managed resource address (`type.name`) a block refers to, for ordering creation. */
export function referencedAddresses(block: unknown): string[] {
  return referencesIn(block).filter((ref) => ref.mode === "managed").map((ref) => ref.address);
}
