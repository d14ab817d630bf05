import { PIPELINE_RULES } from "../../src/constructs/invariants";
import { runPropRules, type PropRule } from "../../src/constructs/prop-rules";
import { buildStack, errorOf, pipelineOf } from "@effectively-once/testing/stack";


describe("Function: runPropRules", () => {
  const props = pipelineOf(buildStack()).config;

  it("reports every problem of every rule, in rule order", () => {
    // Arrange
    const rules: PropRule[] = [
      { name: "a", check: () => ({ prop: "a", value: 1, reason: "is wrong", fix: "fix a" }) },
      { name: "b", check: () => undefined },
      { name: "c", check: () => [{ prop: "c", value: 2, reason: "is wrong", fix: "fix c" }, { prop: "c2", value: 3, reason: "too", fix: "fix c2" }] },
    ];
    // Act
    const report = runPropRules(rules, props);
    // Assert
    expect(report.problems.map((p) => p.prop)).toEqual(["a", "c", "c2"]);
    expect(report.skipped).toEqual([]);
  });

  it("with firstOnly, stops at the first rule that finds a problem (and runs none after it)", () => {
    // Arrange
    const ran: string[] = [];
    const rule = (name: string, bad: boolean): PropRule => ({ name, check: () => (ran.push(name), bad ? { prop: name, value: 0, reason: "is wrong", fix: `fix ${name}` } : undefined) });
    // Act
    const report = runPropRules([rule("a", false), rule("b", true), rule("c", true)], props, { firstOnly: true });
    // Assert
    expect(report.problems.map((p) => p.prop)).toEqual(["b"]);
    expect(ran).toEqual(["a", "b"]);
  });

  it("skips a rule whose dependency failed, and a rule that depends on a skipped one, saying why", () => {
    const rules: PropRule[] = [
      { name: "a", check: () => ({ prop: "a", value: 1, reason: "is wrong", fix: "fix a" }) },
      { name: "b", after: ["a"], check: () => ({ prop: "b", value: 1, reason: "would repeat a", fix: "-" }) },
      { name: "c", after: ["b"], check: () => ({ prop: "c", value: 1, reason: "would repeat b", fix: "-" }) },
    ];
    const report = runPropRules(rules, props);
    expect(report.problems.map((p) => p.prop)).toEqual(["a"]);
    expect(report.skipped).toEqual([{ name: "b", because: "a" }, { name: "c", because: "b" }]);
  });

  it("refuses a rule list whose order cannot honour a dependency", () => {
    expect(() => runPropRules([{ name: "b", after: ["a"], check: () => undefined }, { name: "a", check: () => undefined }], props)).toThrow(/b runs after a/);
  });

  it("holds the pipeline's own rules to a valid order", () => {
    expect(runPropRules(PIPELINE_RULES, props)).toEqual({ problems: [], skipped: [] });
  });
});

describe("Class: IdempotentPipeline (all problems at once)", () => {
  it("names every independent problem in one error, numbered, with each fix", () => {
    // Act
    const error = errorOf(() => buildStack({ batchSize: 11, maxReceiveCount: 3, operation: "1bad" }));
    // Assert
    expect(error.problems.map((p) => p.prop)).toEqual(["operation", "batchSize", "maxReceiveCount"]);
    expect(error.prop).toBe("operation");
    expect(error.message).toMatch(/^IdempotentPipeline: 3 prop problems:\n {2}1\. operation = "1bad" .*Fix: /);
    expect(error.message).toMatch(/\n {2}2\. batchSize = 11 .*Fix: use 1-10/);
    expect(error.message).toMatch(/\n {2}3\. maxReceiveCount = 3 .*Fix: /);
  });

  it("skips the bounds computed from a refused value and says so", () => {
    const error = errorOf(() => buildStack({ executionTimeoutSeconds: 301, visibilityTimeoutSeconds: 1806 }));
    expect(error.problems.map((p) => p.prop)).toEqual(["executionTimeoutSeconds"]);
    expect(error.skipped.map((s) => s.name)).toContain("visibilityTimeoutSeconds.sixExecutions");
    expect(error.message).toMatch(/Not checked until those are fixed: .*visibilityTimeoutSeconds\.sixExecutions \(needs executionTimeoutSeconds\)/);
  });
});
