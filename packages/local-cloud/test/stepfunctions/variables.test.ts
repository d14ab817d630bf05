/** Variables: Assign semantics and scoping rules from "Passing data between states with variables". */
import { DefinitionError } from "../../src/stepfunctions";
import { machine, runOnce } from "@effectively-once/testing";

describe("Variables", () => {
  it("evaluates every Assign expression of a state with the values from before the state", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "A",
      States: {
        A: { Type: "Pass", Assign: { x: 1, y: 10 }, Next: "B" },
        B: { Type: "Pass", Assign: { x: "{% $y %}", y: "{% $x %}" }, Output: { xSeenByOutput: "{% $x %}" }, Next: "C" },
        C: { Type: "Pass", Output: { x: "{% $x %}", y: "{% $y %}", fromB: "{% $states.input %}" }, End: true },
      },
    };
    const run = await runOnce(def);
    expect(run.output).toEqual({ x: 10, y: 1, fromB: { xSeenByOutput: 1 } });
  });

  it("assigns from a Task result ($states.result) before the transition", async () => {
    const lambda = async () => ({ StatusCode: 200, Payload: '{"id":"42"}' });
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "T",
      States: {
        T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f" }, Assign: { id: "{% $states.result.Payload.id %}" }, Output: {}, Next: "P" },
        P: { Type: "Pass", Output: "{% $id %}", End: true },
      },
    };
    expect((await runOnce(def, {}, { integrations: { lambda } })).output).toBe("42");
  });

  it("lets inner Map/Parallel states read outer variables; their own variables stay inside", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Outer",
      States: {
        Outer: { Type: "Pass", Assign: { factor: 10 }, Next: "Par" },
        Par: {
          Type: "Parallel",
          Branches: [
            { StartAt: "B1", States: { B1: { Type: "Pass", Assign: { inner: 1 }, Next: "B2" }, B2: { Type: "Pass", Output: "{% $factor + $inner %}", End: true } } },
            { StartAt: "C1", States: { C1: { Type: "Pass", Output: "{% $factor * 2 %}", End: true } } },
          ],
          Next: "After",
        },
        After: { Type: "Pass", Output: { results: "{% $states.input %}", innerVisible: "{% $exists($inner) %}" }, End: true },
      },
    };
    expect((await runOnce(def)).output).toEqual({ results: [11, 20], innerVisible: false });
  });

  it("does not share variables between Map iterations", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "M",
      States: {
        M: {
          Type: "Map",
          Items: "{% [1, 2, 3] %}",
          MaxConcurrency: 1,
          ItemProcessor: {
            StartAt: "Read",
            States: {
              Read: { Type: "Pass", Output: "{% $exists($seen) ? 'leaked' : 'fresh' %}", Next: "Write" },
              Write: { Type: "Pass", Assign: { seen: "{% $states.input %}" }, End: true },
            },
          },
          End: true,
        },
      },
    };
    expect((await runOnce(def)).output).toEqual(["fresh", "fresh", "fresh"]);
  });

  it("rejects an inner state assigning a variable declared in an outer scope (AWS-documented rejected case)", () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "Outer",
      States: {
        Outer: { Type: "Pass", Assign: { total: 0 }, Next: "M" },
        M: {
          Type: "Map",
          ItemProcessor: { StartAt: "Inner", States: { Inner: { Type: "Pass", Assign: { total: 1 }, End: true } } },
          End: true,
        },
      },
    };
    expect(() => machine(def)).toThrow(DefinitionError);
    expect(() => machine(def)).toThrow(/the variable 'total' is assigned in an outer scope/);
  });

  it("rejects the same outer name re-declared in a nested Parallel branch, also through Catch Assign", () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "P",
      States: {
        P: {
          Type: "Parallel",
          Branches: [{ StartAt: "B", States: { B: { Type: "Pass", Assign: { status: "x" }, End: true } } }],
          Catch: [{ ErrorEquals: ["States.ALL"], Assign: { status: "failed" }, Next: "Done" }],
          Next: "Done",
        },
        Done: { Type: "Succeed" },
      },
    };
    expect(() => machine(def)).toThrow(/'status' is assigned in an outer scope/);
  });

  it("assigns in Catch from $states.errorOutput; the state's own Assign does not apply", async () => {
    const lambda = async () => ({ StatusCode: 200, FunctionError: "Unhandled", Payload: '{"errorType":"Boom","errorMessage":"bad"}' });
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "T",
      States: {
        T: {
          Type: "Task",
          Resource: "arn:aws:states:::lambda:invoke",
          Arguments: { FunctionName: "f" },
          Assign: { ok: true },
          Catch: [{ ErrorEquals: ["Boom"], Assign: { failedWith: "{% $states.errorOutput.Error %}" }, Next: "Report" }],
          End: true,
        },
        Report: { Type: "Pass", Output: { failedWith: "{% $failedWith %}", ok: "{% $exists($ok) %}" }, End: true },
      },
    };
    expect((await runOnce(def, {}, { integrations: { lambda } })).output).toEqual({ failedWith: "Boom", ok: false });
  });

  it("rejects invalid variable names and the reserved name 'states'", () => {
    const def = { QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Pass", Assign: { states: 1, "1bad": 2 }, End: true } } };
    expect(() => machine(def)).toThrow(/'states' is not a valid variable name/);
  });

  it("lets a variable named now shadow the $now() function, as JSONata bindings do", async () => {
    const def = {
      QueryLanguage: "JSONata",
      StartAt: "A",
      States: { A: { Type: "Pass", Assign: { now: 100 }, Next: "B" }, B: { Type: "Pass", Output: "{% $now + 1 %}", End: true } },
    };
    expect((await runOnce(def)).output).toBe(101);
  });
});
