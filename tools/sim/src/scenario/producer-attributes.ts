/**
 * Message attributes a producer sends: mostly none; else up to three, named like the ones the pipeline's own
 * quarantine stamps (`reason`, `businessKey`, `originalMessageId`, `firstSentTimestamp`, `detail`) with forged
 * values, or named like system attributes, prototype names and ordinary ones, with special texts. Now and then a set
 * SQS refuses (a reserved or malformed name, an empty value, a number that is none, eleven attributes), which the
 * model must judge refused at send.
 */
import fc from "fast-check";
import { carriedText } from "./hostile-text";
import type { MessageAttribute } from "./shape";

const string = (name: string, value: string): MessageAttribute => ({ name, dataType: "String", value });
const number = (name: string, value: string): MessageAttribute => ({ name, dataType: "Number", value });

/**
 * A first send far in the future (9999999999999 is in 2286), just after any scenario's end (the simulation starts on
 * 2026-01-01 and jumps a month at most), in 1970, and values the pipeline's reader should not take for a time.
 */
const firstSent = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("9999999999999", "1769904000000").map((v) => number("firstSentTimestamp", v)) },
  { weight: 1, arbitrary: fc.constantFrom("9999999999999", "1").map((v) => string("firstSentTimestamp", v)) },
  { weight: 1, arbitrary: fc.constantFrom("1", "99999999999999999999", "1e3", "-5").map((v) => number("firstSentTimestamp", v)) },
);

const REASONS = ["rejected", "invalid-message", "payload-mismatch", "retries-exhausted"];
/** Keys the generator's tiny parts make (scenario/generator.ts), so a forged key often names a real one. */
const KEYS = ['["a","a"]', '["a","#"]', '["#","a"]', '["a","b"]', '["a#","a"]'];

const pipelineNamed: fc.Arbitrary<MessageAttribute> = fc.oneof(
  { weight: 3, arbitrary: firstSent },
  { weight: 3, arbitrary: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...REASONS) }, { weight: 1, arbitrary: carriedText }).map((v) => string("reason", v)) },
  { weight: 2, arbitrary: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: carriedText }).map((v) => string("businessKey", v)) },
  // The simulation's SQS names messages m1, m2, …: a forged id often names another real message.
  { weight: 2, arbitrary: fc.oneof({ weight: 3, arbitrary: fc.constantFrom("m1", "m2", "m3", "m4") }, { weight: 1, arbitrary: carriedText }).map((v) => string("originalMessageId", v)) },
  { weight: 1, arbitrary: carriedText.map((v) => string("detail", v)) },
);

const OTHER_NAMES = ["SenderId", "SentTimestamp", "ApproximateReceiveCount", "__proto__", "constructor", "hasOwnProperty", "toString", "traceparent", "tenantId", "a.b", "Ümlaut"];
const otherNamed: fc.Arbitrary<MessageAttribute> = fc.record({ name: fc.constantFrom(...OTHER_NAMES), dataType: fc.constantFrom("String", "String.forged"), value: carriedText });

const forged = fc.uniqueArray(fc.oneof({ weight: 3, arbitrary: pipelineNamed }, { weight: 1, arbitrary: otherNamed }), {
  minLength: 1,
  maxLength: 3,
  selector: (a) => a.name,
});

/** One rule of SQS's broken: the whole send is refused. */
const refused: fc.Arbitrary<readonly MessageAttribute[]> = fc.oneof(
  fc.constantFrom("AWS.Trace", "amazon.x", ".lead", "a..b", "has space", "").map((name): readonly MessageAttribute[] => [string(name, "x")]),
  fc.constantFrom<readonly MessageAttribute[]>(
    [string("reason", "")],
    [number("firstSentTimestamp", "soon")],
    [{ name: "reason", dataType: "Text", value: "rejected" }],
    Array.from({ length: 11 }, (_, i) => string(`a${i}`, "x")),
  ),
);

export const producerAttributes: fc.Arbitrary<readonly MessageAttribute[] | undefined> = fc.oneof(
  { weight: 13, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: forged },
  { weight: 1, arbitrary: refused },
);
