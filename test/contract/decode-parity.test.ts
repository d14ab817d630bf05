/**
 * The state machine's Decode step (JSONata, as rendered) and the TypeScript decoder agree on every generated
 * body: the same business key and payload hash, or both refuse the message (naming the same field where the
 * JSONata side gets as far as naming one). `deriveBusinessKey`, the key alone that pipeline-ops and the tools derive,
 * gives the state machine's key wherever the state machine derives one, and none where the key is too long.
 */
import fc from "fast-check";
import { decodeBody, deriveBusinessKey } from "@effectively-once/contract";
import { decodeExpression, type DecodeSpec } from "@effectively-once/contract";
import { compileExpression } from "@effectively-once/local-cloud/emulators";
import { ORDERS_KEY, ORDERS_PAYLOAD_FIELDS } from "@effectively-once/testing";
import { PAYMENTS_RULES } from "@effectively-once/testing";
import { paymentBodyText } from "./support/bodies";
import { MAX_BUSINESS_KEY_BYTES } from "@effectively-once/contract";

const SPEC: DecodeSpec = { keyExpression: ORDERS_KEY.expression, rules: PAYMENTS_RULES, payloadFields: ORDERS_PAYLOAD_FIELDS };
const decode = compileExpression(decodeExpression(SPEC));

type Outcome = { key: string; payloadHash: string } | { problemAt: string };

function fieldOf(problem: string): string {
  return problem.slice(0, problem.indexOf(":"));
}

async function stateMachineOutcome(body: string, expression = decode): Promise<Outcome | "failed"> {
  try {
    const r = (await expression.evaluate(undefined, { states: { input: { body } } })) as { key: string | null; payloadHash: string | null; problem: string | null };
    return r.problem !== null ? { problemAt: fieldOf(r.problem) } : { key: r.key!, payloadHash: r.payloadHash! };
  } catch {
    return "failed"; // the Parse state's catch-all: invalid-message
  }
}

async function typescriptOutcome(body: string, spec = SPEC): Promise<Outcome> {
  const r = await decodeBody(body, spec);
  return "problem" in r ? { problemAt: fieldOf(r.problem) } : r;
}

describe("Decode: the state machine and the TypeScript contract agree", () => {
  it("on generated payment bodies (hostile key parts, numbers spelled many ways, wrong types, missing fields)", async () => {
    await fc.assert(
      fc.asyncProperty(paymentBodyText, async (body) => {
        const sm = await stateMachineOutcome(body);
        const ts = await typescriptOutcome(body);
        if (sm === "failed") expect(ts).toHaveProperty("problemAt");
        else expect(sm).toEqual(ts);
        if (sm !== "failed" && "key" in sm) expect(await deriveBusinessKey(SPEC.keyExpression, JSON.parse(body))).toBe(sm.key);
      }),
      { numRuns: 600, seed: 42 },
    );
  });

  it("gives two key tuples one ledger key only when they are equal, and two amounts one hash only when equal", async () => {
    const part = fc.array(fc.constantFrom("a", "b", "#", "\\", '"', "|", "\u0000", "é", "e\u0301", "\ud800", "😀"), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(""));
    const amount = fc.constantFrom("1000000000000001", "1000000000000002", "10", "10.0", "1e1", "11", "12.5", "12.50");
    const pair = fc.tuple(part, part, amount);
    // The second tuple is often the first one's text cut elsewhere: ("a#", "b") against ("a", "#b").
    const pairs = pair.chain((a) =>
      fc.oneof(
        fc.tuple(fc.constant(a), pair),
        fc.tuple(fc.nat({ max: a[0].length + a[1].length }), amount).map(([cut, other]) => {
          const text = a[0] + a[1];
          return [a, [text.slice(0, cut) || "#", text.slice(cut) || "#", other]] as const;
        }),
      ),
    );
    const body = ([t, o, amount]: readonly [string, string, string]) => `{"tenantId":${JSON.stringify(t)},"orderId":${JSON.stringify(o)},"amount":${amount},"currency":"EUR"}`;
    await fc.assert(
      fc.asyncProperty(pairs, async ([a, b]) => {
        const [x, y] = await Promise.all([stateMachineOutcome(body(a)), stateMachineOutcome(body(b))]);
        if (x === "failed" || y === "failed" || !("key" in x) || !("key" in y)) return;
        expect(x.key === y.key).toBe(a[0] === b[0] && a[1] === b[1]);
        expect(x.payloadHash === y.payloadHash).toBe(JSON.parse(a[2]) === JSON.parse(b[2]));
      }),
      { numRuns: 300, seed: 44 },
    );
  });

  it("hashes payload fields whose names hold separators and quotes alike in both evaluators, and tells their values apart", async () => {
    // Arrange: names the contract carries as JSON; a comma, a quote, an apostrophe, a backslash, a dot, non-ASCII.
    const payloadFields = ["amount,currency", 'a"b', "it's", "a\\b", "a.b", "é😀"];
    const spec: DecodeSpec = { keyExpression: ORDERS_KEY.expression, rules: [], payloadFields };
    const sm = compileExpression(decodeExpression(spec));
    const body = (value: number) => JSON.stringify({ tenantId: "t1", orderId: "o1", ...Object.fromEntries(payloadFields.map((f, i) => [f, i === 0 ? value : i])) });

    // Act
    const hashes = await Promise.all(
      [1, 2].map(async (value) => {
        const a = (await sm.evaluate(undefined, { states: { input: { body: body(value) } } })) as { payloadHash: string };
        const b = (await decodeBody(body(value), spec)) as { payloadHash: string };
        return [a.payloadHash, b.payloadHash];
      }),
    );

    // Assert
    expect(hashes[0][0]).toBe(hashes[0][1]);
    expect(hashes[1][0]).toBe(hashes[1][1]);
    expect(hashes[0][0]).not.toBe(hashes[1][0]);
  });

  it("refuses a key of more than the ledger's bytes of canonical text, and only such a key, in both evaluators", async () => {
    // Characters of 1 to 4 bytes of UTF-8, so the code-point count and the byte count of the key text part ways.
    const char = fc.constantFrom("a", "é", "€", "😀", '"', "\\");
    const key = fc.tuple(fc.array(char, { minLength: 150, maxLength: 1100, size: "max" }), fc.nat({ max: 3 }));
    // No field rules (the payments rules cap the key fields at 128 characters): only the ledger's limit applies.
    const spec: DecodeSpec = { ...SPEC, rules: [] };
    const unruled = compileExpression(decodeExpression(spec));
    await fc.assert(
      fc.asyncProperty(key, async ([chars, cut]) => {
        const text = chars.join("");
        const parts = [text.slice(0, cut), text.slice(cut) || "x"].map((p) => p || "t");
        const body = JSON.stringify({ tenantId: parts[0], orderId: parts[1], amount: 5, currency: "EUR" });
        const got = await stateMachineOutcome(body, unruled);
        const tooLong = Buffer.byteLength(JSON.stringify(parts)) > MAX_BUSINESS_KEY_BYTES;
        expect(got).toEqual(await typescriptOutcome(body, spec));
        expect(got).toEqual(tooLong ? { problemAt: "businessKey" } : expect.objectContaining({ key: JSON.stringify(parts) }));
        expect(await deriveBusinessKey(spec.keyExpression, JSON.parse(body))).toBe(tooLong ? undefined : JSON.stringify(parts));
      }),
      { numRuns: 200, seed: 45 },
    );
  });
});

