/**
 * Messages of a drawn domain (domain/space.ts), in the generator's own form (scenario/generator.ts `MessageSpec`): valid ones
 * over each field's small pool (keys collide: duplicates, resends in another order, conflicts), invalid ones (a field
 * missing, a rule broken, a wrong type), special texts in values (scenario/hostile-text.ts), bodies that are no object, valid
 * messages padded to sizes near the queue's and the batch's byte limits in multi-byte and escaped text; and,
 * under a filter on a message attribute, sends that carry it (or not) besides the producer's usual attributes.
 */
import fc from "fast-check";
import { escaped, extra, raw, str, type MessageSpec, type Raw } from "../scenario/generator";
import { rawBody, specialText } from "../scenario/hostile-text";
import { FILTER_ATTRIBUTE_VALUES, type DomainField, type SimDomain } from "./space";
import { producerAttributes } from "../scenario/producer-attributes";
import type { MessageAttribute } from "../scenario/shape";

/**
 * Units of padding, as JSON string text: 2-, 3- and 4-byte characters (Cyrillic, CJK, an emoji), and the escapes a
 * serializer doubles (a quote, a backslash, a newline) or writes out (a \u escape).
 */
const PAD_UNITS = ["ж", "語", "😀", '\\"', "\\\\", "\\n", "\\u0436", "ж\\\"語"];
/**
 * Body sizes in bytes: small, around the default message size (6 KiB) and the largest of several batch sizes (10:
 * 6,520; 8: 8,705; 5: 15,258; 2: 41,473; 1: 85,163), and around the old 120 KiB; what the queue refuses is refused.
 */
const PAD_BYTES = [1_000, 4_000, 6_000, 6_100, 6_144, 6_500, 8_700, 15_000, 30_000, 41_000, 60_000, 85_000, 100_000, 122_800];

/** A pool value as sent: an integer in one of its spellings (10, 10.0, 1e1 are one value), a string as is or escaped. */
function spelled(text: string): fc.Arbitrary<Raw> {
  const value = JSON.parse(text) as unknown;
  if (typeof value === "number") return fc.constantFrom(text, `${text}.0`, `${text}e0`).map(raw);
  return fc.oneof({ weight: 4, arbitrary: fc.constant(raw(text)) }, { weight: 1, arbitrary: fc.constant(escaped(value as string)) });
}

const poolValue = (f: DomainField): fc.Arbitrary<Raw> => fc.constantFrom(...f.pool).chain(spelled);

/** Values that break a field's rule or type: too short or long, off the pattern, out of range, not an integer. */
function breaking(f: DomainField): fc.Arbitrary<Raw> {
  const r = f.rule;
  const own = r.type === "string"
    ? [str(""), str("x".repeat((r.maxLength ?? 8) + 1)), str("#!"), raw("7"), raw("null"), raw('["a"]')]
    : r.type === "integer"
      ? [raw(String((r.minimum ?? 0) - 1)), raw(String((r.maximum ?? 100) + 1)), raw("1.5"), raw('"1"'), raw("9007199254740993"), raw("{}")]
      : [str(""), raw("1.5"), raw("true"), raw("null"), raw("9007199254740993"), raw("[42]")];
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: specialText.map(str) }, { weight: 1, arbitrary: specialText.map(escaped) });
}

/** Each field from its pool; one field in four missing or broken in a hostile message, which may carry an extra. */
function specsOf(d: SimDomain): fc.Arbitrary<MessageSpec> {
  const fields = [...d.keyParts, ...d.payload];
  const plain = fc.tuple(...fields.map(poolValue)).map((values) => ({ fields: fields.map((f, i) => [f.name, values[i]] as const) }));
  const hostileValue = (f: DomainField): fc.Arbitrary<Raw | undefined> =>
    fc.oneof({ weight: 9, arbitrary: poolValue(f) }, { weight: 2, arbitrary: breaking(f) }, { weight: 1, arbitrary: fc.constant(undefined) });
  const hostile = fc.tuple(fc.tuple(...fields.map(hostileValue)), extra).map(([values, more]) => ({
    fields: [...fields.flatMap((f, i) => (values[i] === undefined ? [] : [[f.name, values[i] as Raw] as const])), ...(more ? [more as readonly [string, Raw]] : [])],
  }));
  const body = rawBody.map((text) => ({ fields: [], body: text }));
  const big = fc.tuple(plain, fc.constantFrom(...PAD_UNITS), fc.constantFrom(...PAD_BYTES)).map(([spec, unit, bytes]): MessageSpec => ({ ...spec, pad: { unit, bytes } }));
  return fc.oneof({ weight: 3, arbitrary: plain }, { weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: body }, { weight: 1, arbitrary: big });
}

/** Under an attribute filter, three sends in four carry the filter's attribute (a value it takes, or another). */
function attributesOf(d: SimDomain): fc.Arbitrary<readonly MessageAttribute[] | undefined> | undefined {
  const f = d.filter;
  if (f?.on !== "attribute") return undefined;
  const own = fc.option(fc.constantFrom(...FILTER_ATTRIBUTE_VALUES).map((value): MessageAttribute => ({ name: f.name, dataType: "String", value })), { nil: undefined, freq: 4 });
  return fc.tuple(own, producerAttributes).map(([a, rest]) => {
    const all = [...(a ? [a] : []), ...(rest ?? []).filter((r) => r.name !== a?.name)];
    return all.length > 0 ? all : undefined;
  });
}

/** The generator's hooks (ScenarioShape.specs, .attributes) for a drawn domain. */
export function domainShape(d: SimDomain): { readonly specs: fc.Arbitrary<MessageSpec>; readonly attributes?: fc.Arbitrary<readonly MessageAttribute[] | undefined> } {
  const attributes = attributesOf(d);
  return { specs: specsOf(d), ...(attributes ? { attributes } : {}) };
}
