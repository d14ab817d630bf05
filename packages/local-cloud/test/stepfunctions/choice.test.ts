/** Choice: JSONata Condition (with rule Assign/Output) and JSONPath comparison operators. */
import { runOnce } from "@effectively-once/testing";

function jsonPathChoice(rule: Record<string, unknown>) {
  return {
    StartAt: "C",
    States: {
      C: { Type: "Choice", Choices: [{ ...rule, Next: "Yes" }], Default: "No" },
      Yes: { Type: "Pass", Result: "yes", End: true },
      No: { Type: "Pass", Result: "no", End: true },
    },
  };
}

describe("Choice", () => {
  it.each([
    [{ Variable: "$.type", StringEquals: "Private" }, { type: "Private" }, "yes"],
    [{ Variable: "$.type", StringEquals: "Private" }, { type: "Public" }, "no"],
    [{ Variable: "$.value", NumericEquals: 0 }, { value: 0 }, "yes"],
    [{ Variable: "$.value", NumericLessThan: 10 }, { value: 9.5 }, "yes"],
    [{ Variable: "$.value", NumericGreaterThanEquals: 20 }, { value: 19 }, "no"],
    [{ Variable: "$.value", NumericLessThanPath: "$.limit" }, { value: 1, limit: 2 }, "yes"],
    [{ Variable: "$.name", StringEqualsPath: "$.other" }, { name: "a", other: "a" }, "yes"],
    [{ Variable: "$.name", StringLessThan: "b" }, { name: "a" }, "yes"],
    [{ Variable: "$.flag", BooleanEquals: true }, { flag: true }, "yes"],
    [{ Variable: "$.flag", BooleanEqualsPath: "$.other" }, { flag: true, other: false }, "no"],
    [{ Variable: "$.rating", StringMatches: "log-*.txt" }, { rating: "log-2024.txt" }, "yes"],
    [{ Variable: "$.rating", StringMatches: "log-\\*.txt" }, { rating: "log-2024.txt" }, "no"],
    [{ Variable: "$.ts", TimestampEquals: "2016-03-14T01:59:00Z" }, { ts: "2016-03-14T01:59:00Z" }, "yes"],
    [{ Variable: "$.ts", TimestampLessThan: "2016-03-14T01:59:00Z" }, { ts: "2016-03-14T01:58:00+00:00" }, "yes"],
    [{ Variable: "$.ts", TimestampGreaterThanPath: "$.other" }, { ts: "2020-01-01T00:00:00Z", other: "2019-01-01T00:00:00Z" }, "yes"],
    [{ Variable: "$.x", IsPresent: true }, { x: null }, "yes"],
    [{ Variable: "$.x", IsPresent: false }, {}, "yes"],
    [{ Variable: "$.x", IsNull: true }, { x: null }, "yes"],
    [{ Variable: "$.x", IsString: true }, { x: 1 }, "no"],
    [{ Variable: "$.x", IsNumeric: true }, { x: 1 }, "yes"],
    [{ Variable: "$.x", IsBoolean: false }, { x: "true" }, "yes"],
    [{ Variable: "$.x", IsTimestamp: true }, { x: "2016-03-14T01:59:00Z" }, "yes"],
    [{ Variable: "$.x", IsTimestamp: true }, { x: "2016-03-14 01:59:00" }, "no"],
    [{ And: [{ Variable: "$.value", NumericGreaterThanEquals: 20 }, { Variable: "$.value", NumericLessThan: 30 }] }, { value: 25 }, "yes"],
    [{ Or: [{ Variable: "$.a", BooleanEquals: true }, { Variable: "$.b", BooleanEquals: true }] }, { a: false, b: false }, "no"],
    [{ Not: { Variable: "$.type", StringEquals: "Private" } }, { type: "Public" }, "yes"],
  ])("JSONPath rule %j with input %j -> %s", async (rule, input, expected) => {
    const run = await runOnce(jsonPathChoice(rule), input);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toBe(expected);
  });

  it("runs JSONata Conditions in order, with a matching rule's Assign and Output", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "C",
      States: {
        C: {
          Type: "Choice",
          Choices: [
            { Condition: "{% $states.input.n < 0 %}", Next: "Done", Output: "negative" },
            { Condition: "{% $states.input.n < 10 %}", Next: "Done", Assign: { size: "small" }, Output: { n: "{% $states.input.n %}" } },
          ],
          Default: "Done",
          Assign: { size: "big" },
          Output: "default",
        },
        Done: { Type: "Pass", Output: { input: "{% $states.input %}", size: "{% $exists($size) ? $size : null %}" }, End: true },
      },
    };
    expect((await runOnce(def, { n: 5 })).output).toEqual({ input: { n: 5 }, size: "small" });
    expect((await runOnce(def, { n: -1 })).output).toEqual({ input: "negative", size: null });
    expect((await runOnce(def, { n: 50 })).output).toEqual({ input: "default", size: "big" });
  });

  it("fails with States.NoChoiceMatched without Default", async () => {
    const def = { QueryLanguage: "JSONata", StartAt: "C", States: { C: { Type: "Choice", Choices: [{ Condition: "{% false %}", Next: "X" }] }, X: { Type: "Succeed" } } };
    const run = await runOnce(def);
    expect(run.status).toBe("FAILED");
    expect(run.error).toBe("States.NoChoiceMatched");
  });

  it("requires a boolean Condition", async () => {
    const def = { QueryLanguage: "JSONata", StartAt: "C", States: { C: { Type: "Choice", Choices: [{ Condition: "{% 'yes' %}", Next: "X" }] }, X: { Type: "Succeed" } } };
    const run = await runOnce(def);
    expect(run.error).toBe("States.QueryEvaluationError");
    expect(run.cause).toContain("Expected 'boolean', but was 'string'");
  });
});
