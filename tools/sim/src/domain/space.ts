/**
 * The domain a scenario runs under, drawn like its props (issue 22, "any domain"): key parts and payload fields (1-3
 * each) named from plain names and from hostile ones (dots, dashes, commas, quotes, backticks, unicode, long), their
 * field rules (string with lengths and a pattern, integer with bounds, string-or-integer: a JSON type that varies,
 * 42 beside "42"), the key expression (domain/key-terms.ts: every form a synth ever accepted, pure or not), the operation,
 * optionally a value the downstream refuses for good and a pipe filter on a message attribute or a body field. Candidates the construct
 * refuses (whitespace, prototype names, `${`, a bad operation, …) are drawn too and dropped by the construct's own
 * `resolveProps` + `assertPipelineInvariants` (scenario/settings-space.ts `accepts`): nothing here restates its rules.
 * Field names are outside text: every map here is an array of pairs.
 */
import fc from "fast-check";
import type { FieldRule } from "@effectively-once/contract";
import type { MessageAttribute } from "../scenario/shape";
import { keyExpression, keyFormArbitrary, type KeyForm } from "./key-terms";

export type DomainRule =
  | { readonly type: "string"; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string }
  | { readonly type: "integer"; readonly minimum?: number; readonly maximum?: number }
  | { readonly type: "string-or-integer" };

/** One field of a domain: its name, its rule, and the values valid messages draw it from (small: keys collide). */
export interface DomainField {
  readonly name: string;
  readonly rule: DomainRule;
  /** JSON texts of values that keep the rule (an integer in several spellings is one value). */
  readonly pool: readonly string[];
}

export type DomainFilter =
  | { readonly on: "attribute"; readonly name: string; readonly values: readonly string[] }
  | { readonly on: "body"; readonly field: string; readonly values: readonly string[] };

export interface SimDomain {
  readonly keyParts: readonly DomainField[];
  readonly payload: readonly DomainField[];
  readonly operation: string;
  /** Key expression form: backtick paths, or `$lookup` (any name, a backtick too). */
  readonly lookup: boolean;
  /** The key expression's parts (domain/key-terms.ts); none: every key part read once, in order, as an array. */
  readonly key?: KeyForm;
  /** A payload value the generic downstream refuses for good (`rejected`). */
  readonly refuses?: { readonly field: string; readonly value: string | number };
  readonly filter?: DomainFilter;
}

/** Which domain the scenarios run under: the payments example's (earlier seeds keep their paths), drawn, or half each. */
export const DomainMode = { Payments: "payments", Mixed: "mixed", Random: "random" } as const;
export type DomainMode = (typeof DomainMode)[keyof typeof DomainMode];

const PLAIN_NAMES = ["id", "tenantId", "orderId", "sku", "qty", "amount", "region", "user"];
const HOSTILE_NAMES = [
  "a.b", "order-id", "x,y", "it's", 'say"hi"', "back`tick", "naïve", "cafe\u0301", "名前", "😀", "$x", "a[0]", "#", "0", "K".repeat(64),
  // Refused by the construct (whitespace, prototype names, a Terraform template, a control character, empty, too long).
  "has space", "__proto__", "constructor", "x${y}", "c\u0001", "", "K".repeat(300),
];
const OPERATIONS = ["process", "charge", "ship-order", "a_1", "X", "o".repeat(64), "1st", "has space", "ünï", "o".repeat(65)];
const PATTERNS = ["^[a-z]+$", "^[A-Z]{3}$", "\\d", "^[^#]*$", "é", "^(a|b|#)+$", "[", "a/b"];
const STRING_CANDIDATES = ["a", "b", "a#b", "EUR", "USD", "x'y", "é", "😀", "7", "ab", "B"];
const INTEGER_CANDIDATES = [0, 1, 2, 10, -5, 100, 42];
/** One text in both JSON types: under a rule that takes either, one identity can arrive as 42 and as "42". */
const MIXED_CANDIDATES = ["42", 42, "7", 7, "a"];
const FILTER_ATTRIBUTE_NAMES = ["eventType", "kind", "x-route", "ns.type"];
export const FILTER_ATTRIBUTE_VALUES = ["order", "refund", "Order", "order "];

/** The generator's own aim (the model judges with its own evaluator): does a value keep a rule? */
function keeps(value: string | number, rule: DomainRule): boolean {
  if (rule.type === "string-or-integer") return typeof value === "number" || value !== "";
  if (rule.type === "integer") return typeof value === "number" && value >= (rule.minimum ?? -Infinity) && value <= (rule.maximum ?? Infinity);
  if (typeof value !== "string") return false;
  const length = [...value].length;
  if (length < (rule.minLength ?? 1) || length > (rule.maxLength ?? Infinity)) return false;
  if (rule.pattern === undefined) return true;
  return patternOf(rule.pattern)?.test(value) ?? false;
}

/** Each pattern compiled once (no flags: `test` keeps no state); `null` for one that does not compile. */
const compiledPatterns = new Map<string, RegExp | null>();
function patternOf(pattern: string): RegExp | null {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern);
    } catch {
      compiled = null;
    }
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined, freq: 2 });
const ruleArbitrary: fc.Arbitrary<DomainRule> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ type: fc.constant("string" as const), minLength: opt(fc.constantFrom(0, 1, 2)), maxLength: opt(fc.constantFrom(1, 3, 8)), pattern: opt(fc.constantFrom(...PATTERNS)) }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant("integer" as const), minimum: opt(fc.constantFrom(0, 1, -5)), maximum: opt(fc.constantFrom(2, 10, 100)) }) },
  { weight: 1, arbitrary: fc.constant({ type: "string-or-integer" as const }) },
);
const clean = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A field's pool: the first 1-3 candidates (from a drawn offset) that keep its rule. */
function fieldOf(name: string, rule: DomainRule, offset: number, size: number): DomainField {
  const candidates: (string | number)[] = rule.type === "integer" ? INTEGER_CANDIDATES : rule.type === "string" ? STRING_CANDIDATES : MIXED_CANDIDATES;
  const rotated = [...candidates.slice(offset % candidates.length), ...candidates.slice(0, offset % candidates.length)];
  return { name, rule: clean(rule), pool: rotated.filter((v) => keeps(v, rule)).slice(0, size).map((v) => JSON.stringify(v)) };
}

const fieldsArbitrary = fc
  .record({
    names: fc.uniqueArray(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...PLAIN_NAMES) }, { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NAMES) }), { minLength: 2, maxLength: 6 }),
    keyCount: fc.integer({ min: 1, max: 3 }),
    rules: fc.array(fc.tuple(ruleArbitrary, fc.nat(10), fc.integer({ min: 1, max: 3 })), { minLength: 6, maxLength: 6 }),
  })
  .map(({ names, keyCount, rules }) => {
    const fields = names.map((name, i) => fieldOf(name, rules[i][0], rules[i][1], rules[i][2]));
    const k = Math.min(keyCount, fields.length - 1);
    return { keyParts: fields.slice(0, k), payload: fields.slice(k, k + 3) };
  });

/** Drawn domains, not yet checked by the construct (scenario/settings-space.ts keeps what it accepts). */
export const domainCandidate: fc.Arbitrary<SimDomain> = fc
  .record({
    fields: fieldsArbitrary,
    operation: fc.constantFrom(...OPERATIONS),
    lookup: fc.boolean(),
    key: keyFormArbitrary,
    refuses: fc.option(fc.nat(10), { nil: undefined, freq: 2 }),
    filter: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.record({ on: fc.constant("attribute" as const), name: fc.constantFrom(...FILTER_ATTRIBUTE_NAMES), values: fc.subarray(FILTER_ATTRIBUTE_VALUES, { minLength: 1 }) }) },
      { weight: 1, arbitrary: fc.record({ on: fc.constant("body" as const), field: fc.nat(5), values: fc.nat(2) }) },
    ),
  })
  // Every field has a value a valid message can carry: otherwise the domain has no valid messages at all.
  .filter(({ fields }) => [...fields.keyParts, ...fields.payload].every((f) => f.pool.length > 0))
  .map(({ fields, operation, lookup, key, refuses, filter }) => {
    const all = [...fields.keyParts, ...fields.payload];
    const refusable = fields.payload.find((f) => f.pool.length > 1);
    const strings = all.filter((f) => f.rule.type === "string");
    const bodyField = filter?.on === "body" && strings.length > 0 ? strings[filter.field % strings.length] : undefined;
    return clean({
      keyParts: fields.keyParts,
      payload: fields.payload,
      operation,
      lookup,
      key,
      refuses: refuses !== undefined && refusable ? { field: refusable.name, value: JSON.parse(refusable.pool[refuses % refusable.pool.length]) as string | number } : undefined,
      filter:
        filter?.on === "attribute" ? filter
        : bodyField ? { on: "body" as const, field: bodyField.name, values: bodyField.pool.slice(0, 1 + (filter?.on === "body" ? filter.values : 0)).map((v) => JSON.parse(v) as string) }
        : undefined,
    }) as SimDomain;
  });

/** The construct's props of a domain. Records keyed by field names have no prototype (the construct accepts that). */
export function domainProps(d: SimDomain) {
  const fieldRules: Record<string, FieldRule> = Object.create(null);
  for (const f of [...d.keyParts, ...d.payload]) fieldRules[f.name] = f.rule as FieldRule;
  return {
    businessKey: { expression: keyExpression(d), requiredFields: d.keyParts.map((f) => f.name) },
    operation: d.operation,
    payloadFields: d.payload.map((f) => f.name),
    fieldRules,
    filterPatterns: d.filter === undefined ? [] : [filterPattern(d.filter)],
  };
}

/** The EventBridge pattern of a filter, as the construct takes it (`Object.fromEntries` defines own properties). */
function filterPattern(f: DomainFilter): Record<string, unknown> {
  if (f.on === "attribute") return { messageAttributes: Object.fromEntries([[f.name, { stringValue: [...f.values] }]]) };
  return { body: Object.fromEntries([[f.field, [...f.values]]]) };
}

/** Canonical text of a domain: equal domains, equal key (settings.ts caches settings by it). */
export const domainKey = (d: SimDomain | undefined): string => (d === undefined ? "" : JSON.stringify(d));

/**
 * What the generic downstream records for an applied payload and the model expects (domain/effect.ts): the payload
 * fields' values as sorted `[name, value]` pairs, JSON. A recording format, not a rule.
 */
export function payloadRecord(fields: readonly string[], body: Readonly<Record<string, unknown>>): string {
  const own = (f: string): unknown => (Object.prototype.hasOwnProperty.call(body, f) ? body[f] : undefined);
  return JSON.stringify([...fields].sort().map((f) => [f, own(f)]));
}

/**
 * The model's reading of the pipe's filter (EventBridge's rules, not the pipe's code): does the send pass? A body
 * pattern meets a body that is a JSON object or array; EventBridge reads the body as leaves on dotted paths, arrays
 * transparent at any level (so `{"a.b":"x"}`, `{"a":{"b":"x"}}` and `[{"a.b":["x"]}]` all hold `x` at `a.b`).
 */
export function filterPasses(f: DomainFilter, body: string, attributes: readonly MessageAttribute[] | undefined): boolean {
  if (f.on === "attribute") return (attributes ?? []).some((a) => a.name === f.name && f.values.includes(a.value));
  let parsed: unknown;
  try {
    parsed = /^\s*[{[]/.test(body) ? JSON.parse(body) : undefined;
  } catch {
    return false;
  }
  if (parsed === null || typeof parsed !== "object") return false;
  // An explicit stack: bodies run 20,000 levels deep.
  const stack: [unknown, string][] = [[parsed, ""]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (Array.isArray(value)) for (const element of value) stack.push([element, path]);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) stack.push([child, path === "" ? key : `${path}.${key}`]);
    } else if (path === f.field && typeof value === "string" && f.values.includes(value)) return true;
  }
  return false;
}
