/**
 * Field rules: what each top-level body field the pipeline reads must hold. Declared once (a construct prop),
 * enforced by the state machine (rendered into JSONata by `field-rules-jsonata.ts`) and by the function (here),
 * so both layers give a message the same fate whatever arrives first.
 */
import { CanonicalProblem } from "./canonical";
import { ContractConfigError } from "./errors";
import { MAX_EXACT_INTEGER, MAX_QUOTED_VALUE_CHARS } from "./limits";

export const FieldType = {
  String: "string",
  Integer: "integer",
  Number: "number",
  Boolean: "boolean",
  /** A non-empty string or an exact integer: for payload fields only (a key field has one JSON type). */
  StringOrInteger: "string-or-integer",
  /** Any JSON value (numbers exact, see canonical.ts): the default for payload fields. */
  Any: "any",
} as const;
export type FieldType = (typeof FieldType)[keyof typeof FieldType];

interface StringRule {
  readonly type: typeof FieldType.String;
  /** Unicode code points. @default 1 */
  readonly minLength?: number;
  readonly maxLength?: number;
  /** A JavaScript regular expression (no flags, no `/`) the value must contain a match of, e.g. `^[A-Z]{3}$`. */
  readonly pattern?: string;
}
interface NumericRule {
  readonly type: typeof FieldType.Integer | typeof FieldType.Number;
  readonly minimum?: number;
  readonly maximum?: number;
}
interface PlainRule {
  readonly type: typeof FieldType.Boolean | typeof FieldType.StringOrInteger | typeof FieldType.Any;
}
/** What one top-level field must hold. */
export type FieldRule = StringRule | NumericRule | PlainRule;

/** Rules per top-level field name. */
export type FieldRules = Readonly<Record<string, FieldRule>>;

/** Key fields are non-empty strings unless declared otherwise: one JSON type, so 42 and "42" are never two keys. */
const DEFAULT_KEY_RULE: FieldRule = { type: FieldType.String };
const DEFAULT_PAYLOAD_RULE: FieldRule = { type: FieldType.Any };

/** What a rule expects, in the words of a validation message: "expected <this>, got ...". */
export function describeRule(rule: FieldRule): string {
  switch (rule.type) {
    case FieldType.String: {
      const min = rule.minLength ?? 1;
      const length = rule.maxLength !== undefined ? `a string of ${min} to ${rule.maxLength} characters` : min === 1 ? "a non-empty string" : `a string of at least ${min} characters`;
      return rule.pattern !== undefined ? `${length} matching /${rule.pattern}/` : length;
    }
    case FieldType.Integer:
    case FieldType.Number: {
      const noun = rule.type === FieldType.Integer ? "an integer" : "a number";
      const bounds = [rule.minimum !== undefined ? `>= ${rule.minimum}` : "", rule.maximum !== undefined ? `<= ${rule.maximum}` : ""].filter(Boolean).join(" and ");
      return bounds ? `${noun} ${bounds}` : noun;
    }
    case FieldType.Boolean:
      return "true or false";
    case FieldType.StringOrInteger:
      return "a non-empty string or an integer";
    case FieldType.Any:
      return "a value";
  }
}

/**
 * The value as a validation message quotes it: JSON, cut short after as many code points as the state machine's
 * `$quote` keeps (JSONata counts code points), so a cut never splits a surrogate pair.
 */
function quoteValue(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  if (json.length <= MAX_QUOTED_VALUE_CHARS) return json;
  const points = Array.from(json);
  return points.length > MAX_QUOTED_VALUE_CHARS ? `${points.slice(0, MAX_QUOTED_VALUE_CHARS).join("")}...` : json;
}

function isExactInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= MAX_EXACT_INTEGER;
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

function satisfies(value: unknown, rule: FieldRule): boolean {
  switch (rule.type) {
    case FieldType.String: {
      if (typeof value !== "string") return false;
      const length = codePoints(value);
      if (length < (rule.minLength ?? 1)) return false;
      if (rule.maxLength !== undefined && length > rule.maxLength) return false;
      return rule.pattern === undefined || new RegExp(rule.pattern).test(value);
    }
    case FieldType.Integer:
    case FieldType.Number:
      if (typeof value !== "number" || !Number.isFinite(value)) return false;
      if (rule.type === FieldType.Integer && !isExactInteger(value)) return false;
      if (rule.minimum !== undefined && value < rule.minimum) return false;
      return rule.maximum === undefined || value <= rule.maximum;
    case FieldType.Boolean:
      return typeof value === "boolean";
    case FieldType.StringOrInteger:
      return (typeof value === "string" && value.length > 0) || isExactInteger(value);
    case FieldType.Any:
      return true;
  }
}

/** The problem with one field of a body, or undefined when it satisfies its rule. */
function fieldProblem(body: Readonly<Record<string, unknown>>, field: string, rule: FieldRule): string | undefined {
  const value = Object.prototype.hasOwnProperty.call(body, field) ? body[field] : undefined;
  // JSON has no undefined: an own property holding it is as absent as a missing one.
  if (value === undefined) return `${field}: expected ${describeRule(rule)}, got nothing`;
  // A number JSON cannot carry exactly is named as such, not as a range or type problem.
  if (typeof value === "number" && Number.isFinite(value)) {
    if (Number.isInteger(value) && Math.abs(value) > MAX_EXACT_INTEGER) return CanonicalProblem.inexactInteger(field);
    if (!Number.isInteger(value) && Number(String(Number(value.toPrecision(15)))) !== value) return CanonicalProblem.inexactFraction(field);
  }
  return satisfies(value, rule) ? undefined : `${field}: expected ${describeRule(rule)}, got ${quoteValue(value)}`;
}

/** Every field the pipeline reads, with its rule: key fields first, then payload fields, each once, in order. */
export function effectiveRules(keyFields: readonly string[], payloadFields: readonly string[], rules: FieldRules): [string, FieldRule][] {
  const out = new Map<string, FieldRule>();
  // Own rules only: `rules.constructor` is Object, not a rule.
  const ruleOf = (field: string) => (Object.prototype.hasOwnProperty.call(rules, field) ? rules[field] : undefined);
  for (const field of keyFields) out.set(field, ruleOf(field) ?? DEFAULT_KEY_RULE);
  for (const field of [...payloadFields].sort()) if (!out.has(field)) out.set(field, ruleOf(field) ?? DEFAULT_PAYLOAD_RULE);
  for (const [field, rule] of Object.entries(rules)) if (!out.has(field)) out.set(field, rule);
  return [...out.entries()];
}

/** The first problem of a body, checking fields in `effectiveRules` order; undefined when all hold. */
export function firstFieldProblem(body: Readonly<Record<string, unknown>>, rules: readonly [string, FieldRule][]): string | undefined {
  for (const [field, rule] of rules) {
    const problem = fieldProblem(body, field, rule);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Object.prototype's members. JSONata's `$lookup` and a plain object's `[name]` find them on every object, so a
 * field of that name would seem present (or carry a rule) in a body that never had it, and the state machine
 * and the function could each read it their own way: refused rather than guarded in every reader.
 */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const MAX_FIELD_NAME = 255;

/**
 * Why the contract cannot carry a top-level field name, or undefined. A name travels in the Decode JSONata, as
 * JSON in the function's environment and, inside a problem text, in a quarantined copy's SQS attribute, which
 * refuses control characters, lone surrogates and U+FFFE/U+FFFF. Whitespace is refused too, as a likely typo.
 */
export function fieldNameProblem(name: unknown): { reason: string; fix: string } | undefined {
  const fix = "use the top-level body field name, without spaces";
  if (typeof name !== "string" || name.length === 0 || name.length > MAX_FIELD_NAME) return { reason: `is not a field name (1-${MAX_FIELD_NAME} characters)`, fix };
  if (/\s/u.test(name)) return { reason: "is not a field name (it holds whitespace)", fix };
  const bad = /[\p{Cc}\p{Cs}\uFFFE\uFFFF]/u.exec(name)?.[0];
  if (bad !== undefined) {
    const code = `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    const kind = /\p{Cs}/u.test(bad) ? "a lone surrogate" : /\p{Cc}/u.test(bad) ? "a control character" : "a noncharacter";
    return { reason: `holds ${kind} (${code}), which a quarantine reason (an SQS message attribute) cannot carry`, fix: "rename the field to printable characters" };
  }
  if (PROTOTYPE_NAMES.has(name)) {
    return { reason: "is a member of Object.prototype, which JSONata and the function's objects find on every body", fix: `rename the field, e.g. "${name.replace(/_/g, "")}Field"` };
  }
  return undefined;
}

const TYPES = new Set<string>(Object.values(FieldType));

/** Refuses rules the state machine could not enforce exactly as the function does. */
export function assertFieldRules(rules: FieldRules, prop = "fieldRules"): void {
  const prototype: unknown = Object.getPrototypeOf(rules);
  if (prototype !== Object.prototype && prototype !== null) {
    // `{ __proto__: {...} }` in an object literal sets the prototype: those rules would be silently lost.
    throw new ContractConfigError(prop, prototype, "is the prototype of the rules, not rules: an object literal's __proto__ key sets it", "remove the __proto__ key (__proto__ cannot name a field)");
  }
  for (const [field, rule] of Object.entries(rules)) {
    const nameProblem = fieldNameProblem(field);
    if (nameProblem) throw new ContractConfigError(prop, field, nameProblem.reason, nameProblem.fix);
    const at = `${prop}.${field}`;
    if (!TYPES.has(rule.type)) throw new ContractConfigError(`${at}.type`, rule.type, "is not a field type", `use one of ${[...TYPES].join(", ")}`);
    if (rule.type === FieldType.String) {
      for (const [name, value] of [["minLength", rule.minLength], ["maxLength", rule.maxLength]] as const) {
        if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw new ContractConfigError(`${at}.${name}`, value, "is not a length", "use a whole number >= 0");
      }
      if (rule.pattern !== undefined) {
        if (rule.pattern.includes("/")) throw new ContractConfigError(`${at}.pattern`, rule.pattern, "contains \"/\", which would end the JSONata /regex/ the state machine embeds it in", "write it as \\x2F");
        try {
          new RegExp(rule.pattern);
        } catch (error) {
          throw new ContractConfigError(`${at}.pattern`, rule.pattern, `is not a regular expression (${(error as Error).message})`, "give a JavaScript regular expression without flags", { cause: error });
        }
      }
    }
    if (rule.type === FieldType.Integer || rule.type === FieldType.Number) {
      for (const [name, value] of [["minimum", rule.minimum], ["maximum", rule.maximum]] as const) {
        if (value !== undefined && !Number.isFinite(value)) throw new ContractConfigError(`${at}.${name}`, value, "is not a finite number", "use a finite number");
      }
    }
  }
}
