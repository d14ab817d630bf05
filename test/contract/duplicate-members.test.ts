/**
 * A member name twice in one object (I-JSON's one adopted rule, packages/contract/src/member-names.ts): the Decode
 * step's JSONata (a count, run by the local interpreter as rendered), the TypeScript scan and the generator's own
 * knowledge of what it wrote agree on every generated body: names spelled with escapes (`"a"` against `"\u0061"`),
 * quotes, backslashes, colons and brackets inside strings, objects in arrays in objects, prototype names.
 */
import fc from "fast-check";
import { decodeBody, decodeExpression, DecodeProblem, type DecodeSpec, duplicateMemberName } from "@effectively-once/contract";
import { compileExpression } from "@effectively-once/local-cloud/emulators";
import { ORDERS_KEY, ORDERS_PAYLOAD_FIELDS, PAYMENTS_RULES } from "@effectively-once/testing";
import { NAUGHTY_STRINGS, PROTOTYPE_NAMES } from "../../tools/sim/src/scenario/hostile-text";
import { hostileString } from "./support/arbitraries";

const SPEC: DecodeSpec = { keyExpression: ORDERS_KEY.expression, rules: PAYMENTS_RULES, payloadFields: ORDERS_PAYLOAD_FIELDS };
const decode = compileExpression(decodeExpression(SPEC));

async function stateMachineProblem(body: string): Promise<string | null> {
  const r = (await decode.evaluate(undefined, { states: { input: { body } } })) as { problem: string | null };
  return r.problem;
}

/** A parsed-tree shape that keeps what JSON.parse would collapse: objects as lists of [name, value] pairs. */
type Tree = null | boolean | number | string | { readonly list: readonly Tree[] } | { readonly members: readonly (readonly [string, Tree])[] };

function hasDuplicate(tree: Tree): boolean {
  if (tree === null || typeof tree !== "object") return false;
  if ("list" in tree) return tree.list.some(hasDuplicate);
  const names = tree.members.map(([name]) => name);
  return new Set(names).size < names.length || tree.members.some(([, value]) => hasDuplicate(value));
}

/** Few names, so that objects often repeat one, each of which a JavaScript object treats specially or JSON escapes. */
const NAMES = ["a", "amount", "tenantId", "", ":", '"', "\\", 'a\\"b', "{", "]", "\ud800", "😀", "é", ...PROTOTYPE_NAMES.slice(0, 4), "__proto__"];
const name = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom(...NAUGHTY_STRINGS) });

const { tree } = fc.letrec<{ tree: Tree; object: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    hostileString,
    fc.array(tie("tree"), { maxLength: 4 }).map((list) => ({ list })),
    tie("object"),
  ),
  object: fc.array(fc.tuple(name, tie("tree")), { maxLength: 5 }).map((members) => ({ members })),
}));
const topObject: fc.Arbitrary<Tree> = fc.array(fc.tuple(name, tree), { minLength: 1, maxLength: 6 }).map((members) => ({ members }));

/** Each UTF-16 unit of a string as it is (where JSON allows), as `\uXXXX` (either case) or its short escape, by `pick`. */
function spell(text: string, pick: () => number): string {
  let out = '"';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text[i];
    const code = text.charCodeAt(i);
    const hex = code.toString(16).padStart(4, "0");
    const way = pick() % 4;
    const short = JSON.stringify(unit).slice(1, -1);
    if (way === 0) out += `\\u${hex}`;
    else if (way === 1) out += `\\u${hex.toUpperCase()}`;
    else if (unit === "/" && way === 2) out += "\\/";
    else out += unit === '"' || unit === "\\" || code < 0x20 ? short : unit;
  }
  return `${out}"`;
}

/** The tree as JSON text with escapes and whitespace chosen by the seed: every duplicate survives into the text. */
function render(tree: Tree, pick: () => number): string {
  const space = () => ["", "", " ", "\n", "\t", "\r\n  "][pick() % 6];
  if (tree === null || typeof tree !== "object") return typeof tree === "string" ? spell(tree, pick) : JSON.stringify(tree);
  if ("list" in tree) return `[${space()}${tree.list.map((v) => render(v, pick)).join(`${space()},${space()}`)}${space()}]`;
  return `{${space()}${tree.members.map(([n, v]) => `${spell(n, pick)}${space()}:${space()}${render(v, pick)}`).join(`${space()},${space()}`)}${space()}}`;
}

const bodies = fc.tuple(topObject, fc.array(fc.nat(), { minLength: 1, maxLength: 64 })).map(([t, seeds]) => {
  let i = 0;
  const pick = () => seeds[i++ % seeds.length] + i;
  return { tree: t, text: render(t, pick) };
});

describe("Decode: a member name twice in one object is invalid-message, in both evaluators", () => {
  it.each([
    ['{"amount":100,"amount":900}', "amount"],
    ['{"a":1,"\\u0061":2}', "a"],
    ['{"tenantId":"t","x":{"y":[1,{"z":1,"z":2}]}}', "z"],
    ['{"__proto__":1,"__proto__":{}}', "__proto__"],
    ['{"a\\"b":1, "a\\u0022b" : 2}', 'a"b'],
    ['{"\\\\":{"k:\\"":1},"\\\\" :2}', "\\"],
  ])("refuses %s (the name %j twice)", async (body, twice) => {
    expect(duplicateMemberName(body)).toBe(twice);
    expect(await stateMachineProblem(body)).toBe(DecodeProblem.duplicateMember);
    expect(await decodeBody(body, SPEC)).toEqual({ problem: DecodeProblem.duplicateMember });
  });

  it.each([
    '{"a":{"b":1},"c":{"b":1}}',
    '{"a":[{"a":1},{"a":1}],"b":"a:a"}',
    '{"a:":"\\":","b\\\\":"\\\\","c":[[],{}]}',
    '{"a":1,"A":2,"\\u00e9":3,"e\\u0301":4}',
    '{"\\ud800":1,"\\udc00":2}',
  ])("accepts %s (every name once per object)", async (body) => {
    expect(duplicateMemberName(body)).toBeUndefined();
    expect(await stateMachineProblem(body)).not.toBe(DecodeProblem.duplicateMember);
  });

  it("agrees with what the generator wrote, for the TypeScript scan and the Decode step's JSONata", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async ({ tree: t, text }) => {
        const expected = hasDuplicate(t);
        expect(duplicateMemberName(text) !== undefined).toBe(expected);
        expect((await stateMachineProblem(text)) === DecodeProblem.duplicateMember).toBe(expected);
        expect(await decodeBody(text, SPEC)).toEqual(expected ? { problem: DecodeProblem.duplicateMember } : expect.anything());
        if (!expected) expect(await decodeBody(text, SPEC)).not.toEqual({ problem: DecodeProblem.duplicateMember });
      }),
      { numRuns: 500, seed: 7493 },
    );
  });
});
