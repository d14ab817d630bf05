/** The strings of a resource, data or output block that Terraform reads as templates. */
import { parseTemplate, type ResourceReference } from "./template";

/**
 * Top-level keys of a block that are not templates: the `//` comment property and the meta-arguments written as
 * bare references (`depends_on: ["aws_iam_role.r"]`) or holding provider addresses.
 */
const NOT_TEMPLATES = new Set(["//", "depends_on", "provider", "lifecycle"]);

function mapStrings(value: unknown, fn: (text: string, path: string) => string, path: string): unknown {
  if (typeof value === "string") return fn(value, path);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, fn, `${path}[${i}]`));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, fn, `${path}.${key}`)]));
  }
  return value;
}

/**
 * A copy of `block` with every template string replaced by `fn(text, path)`; `path` names the string for errors
 * (`<where>.redrive_policy`, `<where>.ttl[0].attribute_name`). Comments and meta-arguments are kept as they are.
 */
export function mapTemplates<T>(block: T, fn: (template: string, path: string) => string, where: string): T {
  if (block === null || typeof block !== "object" || Array.isArray(block)) return mapStrings(block, fn, where) as T;
  return Object.fromEntries(
    Object.entries(block).map(([key, value]) => [key, NOT_TEMPLATES.has(key) ? value : mapStrings(value, fn, `${where}.${key}`)]),
  ) as T;
}

/** Every reference the block's templates make, in order of appearance. */
export function referencesIn(block: unknown, where = "block"): ResourceReference[] {
  const found: ResourceReference[] = [];
  mapTemplates(
    block,
    (text, path) => {
      for (const part of parseTemplate(text, path)) if ("ref" in part) found.push(part.ref);
      return text;
    },
    where,
  );
  return found;
}
