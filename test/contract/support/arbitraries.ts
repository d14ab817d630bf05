/** Generators of values that break naive canonical forms: precision edges, unicode edge cases, separators. */
import fc from "fast-check";

const EDGE_NUMBERS = [
  0, -0, 1, -1, 10, 10.0, 1e1, 0.1, 0.2, 0.30000000000000004, 1000000000000001, 1000000000000002,
  // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 spelled as a literal is the precision edge under test
  9007199254740991, -9007199254740991, 9007199254740992, 9007199254740993, 1e15, 1e16, 1e21, 1e300, 5e-324,
  123456789012345.6, 1.0000000000000002, 99999999.99999999, 100000000, 199999999, 1e8 - 1, 2 ** 53 - 2,
  Number.MAX_VALUE, Number.MIN_VALUE, 1.5, -2.5, 0.000001, 1e-7,
];

/** Numbers at the edges where 15 significant digits, 2^53 and the 8-digit split matter. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS),
  fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 1, max: 17 }).chain((digits) => fc.bigInt({ min: 10n ** BigInt(digits - 1), max: 10n ** BigInt(digits) - 1n }).map(Number)),
  fc.tuple(fc.integer({ min: 0, max: 99999999 }), fc.integer({ min: 0, max: 99999999 })).map(([h, l]) => h * 1e8 + l),
);

const EDGE_STRINGS = ["", "a#b", "#", "a\\b", '"', "'", "café", "cafe\u0301", "\u0000", "\u001f", "\ud800", "\udc00x", "😀", "\uFFFE", "\uFFFF", "\u2028", "1e1", "10"];

/** Strings with separators, quotes, control characters, lone surrogates, emoji and non-characters. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...EDGE_STRINGS),
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme-composite" }),
  fc.array(fc.constantFrom(...EDGE_STRINGS)).map((parts) => parts.join("")),
);

const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    hostileString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
}));

/** Any JSON value made of the above (what JSON.parse can return). */
export const hostileJson: fc.Arbitrary<unknown> = value;
