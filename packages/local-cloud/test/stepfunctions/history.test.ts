/** The execution history: AWS event types, ids and previousEventId chains, switchable off, printable. */
import { formatHistory, type LambdaInvoker } from "../../src/stepfunctions";
import { runOnce, types } from "@effectively-once/testing";

const lambda: LambdaInvoker = async () => ({ StatusCode: 200, Payload: '"ok"' });
const def = {
  QueryLanguage: "JSONata",
  StartAt: "T",
  States: {
    T: { Type: "Task", Resource: "arn:aws:states:::lambda:invoke", Arguments: { FunctionName: "f", Payload: "{% $states.input %}" }, Next: "M" },
    M: { Type: "Map", Items: "{% [1, 2] %}", ItemProcessor: { StartAt: "P", States: { P: { Type: "Pass", End: true } } }, End: true },
  },
};

describe("Execution history", () => {
  it("records AWS event types with ids, previousEventId and details", async () => {
    const run = await runOnce(def, { a: 1 }, { integrations: { lambda } });
    expect(types(run).slice(0, 8)).toEqual([
      "ExecutionStarted",
      "TaskStateEntered",
      "TaskScheduled",
      "TaskStarted",
      "TaskSucceeded",
      "TaskStateExited",
      "MapStateEntered",
      "MapStateStarted",
    ]);
    expect(types(run).slice(-4)).toEqual(["MapIterationSucceeded", "MapStateSucceeded", "MapStateExited", "ExecutionSucceeded"]);
    run.events.forEach((e, i) => expect(e.id).toBe(i + 1));
    expect(run.events[2].details).toMatchObject({ resource: "invoke", resourceType: "lambda", region: "us-east-1", parameters: { FunctionName: "f", Payload: { a: 1 } } });
    const started = run.events.find((e) => e.type === "MapStateStarted");
    const iterations = run.events.filter((e) => e.type === "MapIterationStarted");
    expect(iterations.map((e) => e.previousEventId)).toEqual([started?.id, started?.id]);
    expect(started?.details).toEqual({ length: 2 });
  });

  it("records nothing when switched off, with the same result and the same event ids in causes", async () => {
    const on = await runOnce({ QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Pass", Next: "B" }, B: { Type: "Pass", Output: "{% $nope %}", End: true } } });
    const off = await runOnce({ QueryLanguage: "JSONata", StartAt: "A", States: { A: { Type: "Pass", Next: "B" }, B: { Type: "Pass", Output: "{% $nope %}", End: true } } }, {}, { history: false });
    expect(off.events).toEqual([]);
    expect(off.cause).toBe(on.cause);
    expect(on.cause).toContain("(entered at the event id #4)");
  });

  it("prints a readable table", async () => {
    const run = await runOnce(def, {}, { integrations: { lambda } });
    const text = formatHistory(run.events);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^ID\s+PREV\s+TIME\s+TYPE\s+DETAILS$/);
    expect(lines).toHaveLength(run.events.length + 1);
    expect(text).toMatch(/TaskScheduled\s+resource=invoke resourceType=lambda/);
  });
});
