/** Definition validation at creation: clear errors naming the location and the fix. */
import { DefinitionError, createStateMachine } from "../../src/stepfunctions";
import { InvalidArgumentError } from "../../src/stepfunctions/errors";
import { machine } from "@effectively-once/testing";

function problems(def: unknown): string[] {
  try {
    machine(def);
  } catch (e) {
    if (e instanceof DefinitionError) return [...e.problems];
    throw e;
  }
  throw new Error("expected a DefinitionError");
}

describe("Definition validation", () => {
  it("requires StartAt to name an existing state and every Next to exist", () => {
    expect(problems({ StartAt: "Nope", States: { A: { Type: "Pass", Next: "Missing" } } })).toEqual([
      "/StartAt: the state 'Nope' does not exist",
      "/States/A/Next: the state 'Missing' does not exist in this scope",
    ]);
  });

  it("requires exactly one of Next or End", () => {
    expect(problems({ StartAt: "A", States: { A: { Type: "Pass" } } })).toEqual(['/States/A: a Pass state must have exactly one of "Next" or "End": true']);
    expect(problems({ StartAt: "A", States: { A: { Type: "Pass", Next: "A", End: true } } })).toHaveLength(1);
  });

  it("rejects JSONPath fields in JSONata states, with the field to use instead", () => {
    const p = problems({ QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Parameters: {}, ResultPath: "$.x", End: true } } });
    expect(p).toContain("/States/A/Parameters: the field 'Parameters' is not supported in JSONata states; use Arguments (or ItemSelector in a Map state)");
    expect(p.some((x) => x.startsWith("/States/A/ResultPath"))).toBe(true);
  });

  it("rejects JSONata-only fields in JSONPath states and JSONPath states in a JSONata machine", () => {
    expect(problems({ StartAt: "A", States: { A: { Type: "Pass", Output: {}, End: true } } })[0]).toMatch(/only supported in JSONata states/);
    expect(problems({ QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Pass", QueryLanguage: "JSONPath", End: true } } })[0]).toMatch(/cannot use JSONPath/);
  });

  it("reports JSONata syntax errors with their position", () => {
    const [p] = problems({ QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Pass", Output: { x: "{% 1 + %}" }, End: true } } });
    expect(p).toMatch(/^\/States\/A\/Output\/x: the JSONata expression '1 \+' is invalid: S0207 at position \d+/);
  });

  it("requires States.ALL alone and last in Retry and Catch", () => {
    const p = problems({
      StartAt: "T",
      States: {
        T: {
          Type: "Task",
          Resource: "arn:aws:states:::lambda:invoke",
          Retry: [{ ErrorEquals: ["States.ALL"] }, { ErrorEquals: ["X"] }],
          Catch: [{ ErrorEquals: ["States.ALL", "X"], Next: "T" }],
          End: true,
        },
      },
    });
    expect(p).toEqual([
      "/States/T/Retry/0/ErrorEquals: States.ALL must appear in the last element of the array",
      "/States/T/Catch/0/ErrorEquals: States.ALL must appear alone in ErrorEquals",
    ]);
  });

  it("validates retrier fields and Catch targets, and allows Retry/Catch only on Task, Map and Parallel", () => {
    const p = problems({
      StartAt: "T",
      States: {
        T: { Type: "Task", Resource: "r", Retry: [{ ErrorEquals: ["X"], MaxAttempts: -1, BackoffRate: 0.5, JitterStrategy: "SOME" }], Catch: [{ ErrorEquals: ["X"], Next: "Gone" }], Next: "P" },
        P: { Type: "Pass", Retry: [], End: true },
      },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        "/States/T/Retry/0/MaxAttempts must be an integer from 0 to 99999999",
        "/States/T/Retry/0/BackoffRate must be a number >= 1.0",
        "/States/T/Retry/0/JitterStrategy must be FULL or NONE",
        "/States/T/Catch/0/Next: the state 'Gone' does not exist in this scope",
        "/States/P/Retry is only supported in Task, Map and Parallel states",
      ]),
    );
  });

  it("validates nested programs and rejects transitions out of a branch", () => {
    const p = problems({
      StartAt: "P",
      States: { P: { Type: "Parallel", Branches: [{ StartAt: "B", States: { B: { Type: "Pass", Next: "P" } } }], End: true } },
    });
    expect(p).toEqual(["/States/P/Branches/0/States/B/Next: the state 'P' does not exist in this scope"]);
  });

  it("rejects unknown types, unknown fields and Wait states without exactly one duration", () => {
    const p = problems({ StartAt: "A", States: { A: { Type: "Sleep", End: true }, W: { Type: "Wait", Seconds: 1, Timestamp: "2020-01-01T00:00:00Z", End: true, Extra: 1 } } });
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/States\/A\/Type must be one of/),
        "/States/W/Extra: the field 'Extra' is not supported in a Wait state",
        "/States/W: a Wait state needs exactly one of Seconds, Timestamp, SecondsPath, TimestampPath",
      ]),
    );
  });

  it("accepts a definition as JSON text and rejects text that is not JSON", () => {
    expect(machine(JSON.stringify({ StartAt: "A", States: { A: { Type: "Succeed" } } })).name).toBe("test");
    expect(() => machine("{")).toThrow(/not valid JSON/);
  });

  it("checks the options", () => {
    const def = { StartAt: "A", States: { A: { Type: "Succeed" } } };
    expect(() => createStateMachine(def, { name: "x", arn: "nope" })).toThrow(InvalidArgumentError);
  });
});
