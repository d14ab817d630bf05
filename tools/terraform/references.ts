/**
 * Terraform string templates as they appear in the configuration section of a plan (JSON syntax keeps
 * `${type.name.attribute}` inside strings). Only plain references are understood; anything else (function calls,
 * `%{}` directives) is reported as unsupported so callers can fall back instead of guessing.
 */

/** A reference to one attribute of one managed resource: `aws_sqs_queue.dlq.arn`. */
export interface ResourceReference {
  /** `type.name` */
  readonly address: string;
  readonly attribute: string;
}

export type TemplatePart = { readonly literal: string } | { readonly ref: ResourceReference } | { readonly unsupported: string };

const PLAIN_REFERENCE = /^([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_-]*)\.([a-z_][a-z0-9_]*)$/;

/** Splits a template into literal text and references; `$${` and `%%{` are Terraform's escapes for a literal `${` / `%{`. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < template.length) {
    if (template.startsWith("$${", i) || template.startsWith("%%{", i)) {
      literal += template[i + 1] + "{";
      i += 3;
      continue;
    }
    const opener = template.startsWith("${", i) ? "$" : template.startsWith("%{", i) ? "%" : undefined;
    if (!opener) {
      literal += template[i++];
      continue;
    }
    const close = template.indexOf("}", i + 2);
    if (close < 0) {
      literal += template.slice(i);
      break;
    }
    if (literal) parts.push({ literal });
    literal = "";
    const inner = template.slice(i + 2, close).trim();
    const match = opener === "$" ? PLAIN_REFERENCE.exec(inner) : null;
    parts.push(match ? { ref: { address: `${match[1]}.${match[2]}`, attribute: match[3] } } : { unsupported: template.slice(i, close + 1) });
    i = close + 1;
  }
  if (literal) parts.push({ literal });
  return parts;
}

export function hasInterpolation(value: string): boolean {
  return parseTemplate(value).some((part) => !("literal" in part));
}

/** Fills each reference with `resolve(ref)`; undefined when a reference cannot be resolved or the template is unsupported. */
export function renderTemplate(template: string, resolve: (ref: ResourceReference) => string | undefined): string | undefined {
  let out = "";
  for (const part of parseTemplate(template)) {
    if ("literal" in part) out += part.literal;
    else if ("unsupported" in part) return undefined;
    else {
      const value = resolve(part.ref);
      if (value === undefined) return undefined;
      out += value;
    }
  }
  return out;
}

/** For display: every reference written as `type.name.attribute`, the rest kept verbatim. */
export function describeTemplate(template: string, label: (ref: ResourceReference) => string = (r) => `${r.address}.${r.attribute}`): string {
  return parseTemplate(template)
    .map((part) => ("literal" in part ? part.literal : "unsupported" in part ? part.unsupported : label(part.ref)))
    .join("");
}
