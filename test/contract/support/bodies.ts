/** Generated message bodies for the payments contract: hostile key parts, numbers written many ways, bad types. */
import fc from "fast-check";
import { hostileJson, hostileString } from "./arbitraries";

/** JSON number texts, including spellings of one value (10, 10.0, 1e1) and values JSON cannot carry exactly. */
export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("10", "10.0", "1e1", "1E+1", "100e-1", "1250", "0", "-5", "12.5", "1000000000000001", "1000000000000002", "9007199254740991", "9007199254740993", "1e21", "0.30000000000000004", "0.1", "1e400", "-0"),
  fc.integer({ min: 1, max: 1_000_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);

/** A field value as JSON text: mostly plausible, sometimes of the wrong type. */
function valueText(kind: "key" | "amount" | "currency"): fc.Arbitrary<string> {
  const plausible =
    kind === "key" ? hostileString.map((s) => JSON.stringify(s)) : kind === "amount" ? numberText : fc.constantFrom('"EUR"', '"USD"', '"eur"', '"EURO"').map(String);
  return fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: hostileJson.map((v) => JSON.stringify(v) ?? "null") }, { weight: 1, arbitrary: numberText });
}

/** A payments body as raw JSON text, fields in any order, some missing, extra fields allowed. */
export const paymentBodyText: fc.Arbitrary<string> = fc
  .record(
    {
      tenantId: valueText("key"),
      orderId: valueText("key"),
      amount: valueText("amount"),
      currency: valueText("currency"),
      note: hostileJson.map((v) => JSON.stringify(v) ?? "null"),
    },
    { requiredKeys: [] },
  )
  .chain((fields) => fc.shuffledSubarray(Object.entries(fields), { minLength: Object.keys(fields).length }))
  .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
