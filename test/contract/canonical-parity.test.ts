/**
 * The two evaluators of the canonical rule (TypeScript for the function and the tools, JSONata for the state
 * machine) agree on every generated value: the same text, or a problem for the same path.
 */
import fc from "fast-check";
import jsonata from "jsonata";
import { canonicalJson } from "@effectively-once/contract";
import { CANONICAL_FUNCTIONS } from "@effectively-once/contract";
import { CanonicalValueError } from "@effectively-once/contract";
import { hostileJson, hostileNumber } from "./support/arbitraries";

const canonInJsonata = jsonata(`( ${CANONICAL_FUNCTIONS} $canon($v, 'value', 0) )`);
const utf8InJsonata = jsonata(`( ${CANONICAL_FUNCTIONS} $utf8($s) )`);

type Outcome = { text: string } | { problemAt: string };

function typescriptOutcome(value: unknown): Outcome {
  try {
    return { text: canonicalJson(value) };
  } catch (error) {
    if (error instanceof CanonicalValueError) return { problemAt: error.field };
    throw error;
  }
}

async function jsonataOutcome(value: unknown): Promise<Outcome> {
  const result = (await canonInJsonata.evaluate({}, { v: value })) as unknown;
  if (typeof result === "string") return { text: result };
  const problem = (result as { problem: string }).problem;
  return { problemAt: problem.slice(0, problem.indexOf(": ")) };
}

describe("Canonical form: TypeScript and JSONata agree", () => {
  it("on hostile JSON values (strings, unicode, numbers at precision edges, nesting)", async () => {
    await fc.assert(
      fc.asyncProperty(hostileJson, async (value) => {
        expect(await jsonataOutcome(value)).toEqual(typescriptOutcome(value));
      }),
      { numRuns: 400, seed: 20261201 },
    );
  });

  it("on numbers alone, where JSONata's 15-digit $string would round", async () => {
    await fc.assert(
      fc.asyncProperty(hostileNumber, async (n) => {
        expect(await jsonataOutcome(n)).toEqual(typescriptOutcome(n));
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it("on the UTF-8 length of canonical texts", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary" }), async (s) => {
        const text = canonicalJson(s);
        expect(await utf8InJsonata.evaluate({}, { s: text })).toBe(Buffer.byteLength(text, "utf8"));
      }),
      { numRuns: 300, seed: 11 },
    );
  });
});
