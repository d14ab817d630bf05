/**
 * Terraform string templates, as the JSON syntax writes them (every string argument of `cdk.tf.json`, and the
 * `constant_value` of a plan's configuration, which keeps JSON strings unevaluated):
 *
 * - `${ expr }` interpolates an expression; only references to resources and data sources are understood here,
 *   anything else (function calls, variables, operators) is kept as an opaque expression part;
 * - `$${` and `%%{` are the escapes for a literal `${` and `%{`;
 * - `%{ if … }` / `%{ for … }` are directives: parsed, and refused when the template is evaluated;
 * - `~` after the opening or before the closing brace strips the whitespace of the adjacent literal.
 *
 * An interpolation ends at its matching `}`: braces and quoted strings inside it (which may hold templates of their
 * own) are skipped, so `${jsonencode({a = "}"})}` is one part.
 */
import { TemplateDirectiveError, TemplateSyntaxError } from "./errors";

/** A reference to an attribute of a managed resource (`aws_sqs_queue.dlq.arn`) or a data source (`data.x.y.z`). */
export interface ResourceReference {
  readonly mode: "managed" | "data";
  /** Terraform's address of the resource: `type.name`, or `data.type.name`. */
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly attribute: string;
  /** Steps after the attribute (`.key`, `[0]`, `["key"]`); empty for a plain reference. */
  readonly path: readonly (string | number)[];
}

type TemplatePart =
  | { readonly literal: string }
  | { readonly ref: ResourceReference; readonly source: string }
  /** Any other interpolation (`${upper(var.x)}`), kept as written. */
  | { readonly expression: string }
  /** A `%{…}` directive, kept as written. */
  | { readonly directive: string };

/** Roots of references that name something other than a resource. */
const NON_RESOURCE_ROOTS = new Set(["var", "local", "module", "path", "terraform", "count", "each", "self", "null", "true", "false"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*/;
const WHITESPACE_END = /\s+$/u;
const WHITESPACE_START = /^\s+/u;

/** Index of the `}` that closes an interpolation or directive whose body starts at `from`; -1 when none does. */
function closingBrace(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = endOfQuoted(text, i + 1);
      if (i < 0) return -1;
    } else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Index of the closing quote of a quoted string inside an expression (its own templates skipped); -1 when none. */
function endOfQuoted(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === '"') return i;
    else if (text.startsWith("$${", i) || text.startsWith("%%{", i)) i += 2;
    else if (text.startsWith("${", i) || text.startsWith("%{", i)) {
      i = closingBrace(text, i + 2);
      if (i < 0) return -1;
    }
  }
  return -1;
}

/** Steps of a traversal (`a.b[0]["c"]`), or undefined when the text is not a plain traversal. */
function traversal(text: string): (string | number)[] | undefined {
  const root = IDENTIFIER.exec(text);
  if (!root) return undefined;
  const steps: (string | number)[] = [root[0]];
  let rest = text.slice(root[0].length);
  while (rest.length > 0) {
    const step = /^\.([A-Za-z_][A-Za-z0-9_-]*)/.exec(rest) ?? /^\.(\d+)/.exec(rest) ?? /^\[(\d+)\]/.exec(rest) ?? /^\["([^"\\$%]*)"\]/.exec(rest);
    if (!step) return undefined;
    steps.push(/^\d+$/.test(step[1]) && !step[0].startsWith('["') ? Number(step[1]) : step[1]);
    rest = rest.slice(step[0].length);
  }
  return steps;
}

/** The reference an interpolation's expression is, when it is one: `type.name.attribute…` or `data.type.name.attribute…`. */
function parseReference(expression: string): ResourceReference | undefined {
  const steps = traversal(expression.trim());
  if (!steps || NON_RESOURCE_ROOTS.has(String(steps[0]))) return undefined;
  const data = steps[0] === "data";
  const [type, name, attribute, ...path] = data ? steps.slice(1) : steps;
  if (typeof type !== "string" || typeof name !== "string" || typeof attribute !== "string") return undefined;
  return { mode: data ? "data" : "managed", address: `${data ? "data." : ""}${type}.${name}`, type, name, attribute, path };
}

/** Splits a template into its parts. Throws TemplateSyntaxError (naming `where`) for a sequence that is never closed. */
export function parseTemplate(template: string, where = "template"): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = "";
  let i = 0;
  while (i < template.length) {
    if (template.startsWith("$${", i) || template.startsWith("%%{", i)) {
      literal += `${template[i]}{`;
      i += 3;
      continue;
    }
    const opener = template.startsWith("${", i) || template.startsWith("%{", i) ? template[i] : undefined;
    if (!opener) {
      literal += template[i++];
      continue;
    }
    const close = closingBrace(template, i + 2);
    if (close < 0) {
      throw new TemplateSyntaxError(`${where}: the ${opener}{ at character ${i} of ${JSON.stringify(template)} is never closed; write ${opener}${opener}{ for a literal ${opener}{`);
    }
    const source = template.slice(i, close + 1);
    let body = template.slice(i + 2, close);
    const stripBefore = body.startsWith("~");
    const stripAfter = body.length > (stripBefore ? 1 : 0) && body.endsWith("~");
    body = body.slice(stripBefore ? 1 : 0, stripAfter ? -1 : undefined);
    if (stripBefore) literal = literal.replace(WHITESPACE_END, "");
    if (literal) parts.push({ literal });
    literal = "";
    if (opener === "%") parts.push({ directive: source });
    else {
      const ref = parseReference(body);
      parts.push(ref ? { ref, source } : { expression: source });
    }
    i = close + 1;
    if (stripAfter) i += WHITESPACE_START.exec(template.slice(i))?.[0].length ?? 0;
  }
  if (literal) parts.push({ literal });
  return parts;
}

interface RenderOptions {
  /** Names the template in errors, e.g. `aws_sqs_queue.q.redrive_policy`. */
  readonly where?: string;
  /** Value of an interpolation that is not a reference (default: unknown, so the template renders to undefined). */
  readonly expression?: (source: string) => string | undefined;
}

/**
 * The template's value with each reference replaced by `resolve(ref)`; undefined as soon as one part has no
 * known value. A directive throws TemplateDirectiveError: evaluating it is beyond this reader.
 */
export function renderTemplate(template: string, resolve: (ref: ResourceReference) => string | undefined, options: RenderOptions = {}): string | undefined {
  const where = options.where ?? "template";
  let out = "";
  for (const part of parseTemplate(template, where)) {
    let value: string | undefined;
    if ("literal" in part) value = part.literal;
    else if ("directive" in part) throw new TemplateDirectiveError(part.directive, where);
    else if ("expression" in part) value = options.expression?.(part.expression);
    else value = resolve(part.ref);
    if (value === undefined) return undefined;
    out += value;
  }
  return out;
}

/** For display: references to managed resources written by `label` (default `type.name.attribute`), the rest as written. */
export function describeTemplate(template: string, label: (ref: ResourceReference) => string = (r) => `${r.address}.${r.attribute}`): string {
  return parseTemplate(template)
    .map((part) => {
      if ("literal" in part) return part.literal;
      if ("ref" in part) return part.ref.mode === "managed" && part.ref.path.length === 0 ? label(part.ref) : part.source;
      return "expression" in part ? part.expression : part.directive;
    })
    .join("");
}
