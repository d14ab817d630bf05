/* eslint-disable @typescript-eslint/no-require-imports -- dynalite and the cache are plain CommonJS */
type Parse = (str: string, options: { context: Record<string, unknown> }) => unknown;
type Memoize = (tag: string, parse: Parse, stats: { hits: number; misses: number }) => Parse;

const { memoize } = require("../../src/dynamodb/dynalite-parse-cache.cjs") as { memoize: Memoize };
const conditionParser = require("dynalite/db/conditionParser") as { parse: Parse };
const updateParser = require("dynalite/db/updateParser") as { parse: Parse };
const db = require("dynalite/db") as { compare: unknown };

/** A context as dynalite's validateExpressions builds it, from one request's names and values (no reserved words). */
function context(names: Record<string, string> | undefined, values: Record<string, unknown> | undefined, isKeyCondition = false) {
  return {
    attrNames: names,
    attrVals: values,
    unusedAttrNames: Object.fromEntries(Object.keys(names ?? {}).map((k) => [k, true])),
    unusedAttrVals: Object.fromEntries(Object.keys(values ?? {}).map((k) => [k, true])),
    isKeyCondition,
    isReserved: () => false,
    compare: db.compare,
  };
}

const CASES: { label: string; parser: { parse: Parse }; str: string; names?: Record<string, string>; values: (i: number) => Record<string, unknown> }[] = [
  {
    label: "the ledger claim",
    parser: conditionParser,
    str: "attribute_not_exists(pk) OR expiresAt < :now OR (#status = :inProgress AND leaseExpiresAt < :now)",
    names: { "#status": "status" },
    values: (i) => ({ ":now": { N: String(1_700_000_000 + i) }, ":inProgress": { S: "IN_PROGRESS" } }),
  },
  {
    label: "the ledger completion",
    parser: updateParser,
    str: "SET #status = :completed, completedAt = :now, expiresAt = :expiresAt REMOVE leaseExpiresAt",
    names: { "#status": "status" },
    values: (i) => ({ ":completed": { S: "COMPLETED" }, ":now": { N: String(i) }, ":expiresAt": { N: String(i + 60) }, ":claimId": { S: `c-${i}` } }),
  },
  {
    label: "Powertools' put condition",
    parser: conditionParser,
    str: "attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)",
    names: { "#id": "id", "#expiry": "expiration", "#status": "status", "#in_progress_expiry": "in_progress_expiration" },
    values: (i) => ({ ":now": { N: String(i) }, ":now_in_millis": { N: String(i * 1000) }, ":inprogress": { S: "INPROGRESS" } }),
  },
  {
    label: "list and number updates",
    parser: updateParser,
    str: "SET a = if_not_exists(a, :zero) + :one, l = list_append(l, :items) ADD n :one DELETE s :gone",
    values: (i) => ({ ":zero": { N: "0" }, ":one": { N: String(i) }, ":items": { L: [{ S: `x${i}` }] }, ":gone": { SS: [`g${i}`] } }),
  },
];

/** True when `target` itself (same object) is somewhere in `tree`. */
function holds(tree: unknown, target: unknown): boolean {
  if (tree === target) return true;
  if (tree === null || typeof tree !== "object") return false;
  return Object.values(tree).some((child) => holds(child, target));
}

describe("Function: memoize (dynalite's expression parsers)", () => {
  for (const c of CASES) {
    it(`gives the same tree, with this request's values, and marks the same names and values used: ${c.label}`, () => {
      // Arrange
      const stats = { hits: 0, misses: 0 };
      const cached = memoize("test", c.parser.parse.bind(c.parser), stats);
      cached(c.str, { context: context(c.names, c.values(1)) }); // fills the cache with other values

      // Act
      const values = c.values(2);
      const fromCache = context(c.names, values);
      const fresh = context(c.names, c.values(2));
      const hit = cached(c.str, { context: fromCache });
      const parsed = c.parser.parse(c.str, { context: fresh });

      // Assert
      expect(stats).toEqual({ hits: 1, misses: 1 });
      expect(hit).toEqual(parsed);
      expect(fromCache.unusedAttrNames).toEqual(fresh.unusedAttrNames);
      expect(fromCache.unusedAttrVals).toEqual(fresh.unusedAttrVals);
      for (const [name, value] of Object.entries(values)) expect(holds(hit, value)).toBe(!(name in fresh.unusedAttrVals));
    });
  }

  it("never caches value-dependent checks (BETWEEN bounds) nor failed parses", () => {
    // Arrange
    const stats = { hits: 0, misses: 0 };
    const cached = memoize("test", conditionParser.parse.bind(conditionParser), stats);
    const between = "n BETWEEN :lo AND :hi";

    // Act
    const ok = cached(between, { context: context(undefined, { ":lo": { N: "1" }, ":hi": { N: "2" } }) });
    const reversed = cached(between, { context: context(undefined, { ":lo": { N: "3" }, ":hi": { N: "2" } }) });
    const undefinedName = cached("#missing = :v", { context: context(undefined, { ":v": { S: "x" } }) });
    const again = cached("#missing = :v", { context: context(undefined, { ":v": { S: "x" } }) });

    // Assert
    expect(typeof ok).toBe("object");
    expect(reversed).toMatch(/upper bound to be greater than or equal to lower bound/);
    expect(undefinedName).toMatch(/attribute name used in the document path is not defined/);
    expect(again).toBe(undefinedName);
    expect(stats).toEqual({ hits: 0, misses: 2 });
  });

  it("keys on the values' types: the same expression over another type is parsed again", () => {
    // Arrange
    const stats = { hits: 0, misses: 0 };
    const cached = memoize("test", conditionParser.parse.bind(conditionParser), stats);

    // Act
    const text = cached("begins_with(a, :p)", { context: context(undefined, { ":p": { S: "x" } }) });
    const number = cached("begins_with(a, :p)", { context: context(undefined, { ":p": { N: "1" } }) });

    // Assert
    expect(typeof text).toBe("object");
    expect(number).toMatch(/Incorrect operand type for operator or function; operator or function: begins_with, operand type: N/);
    expect(stats).toEqual({ hits: 0, misses: 2 });
  });
});
