import { coverageOf, possibleTransitions, statesOf, transitionId } from "../../src/fuzz/coverage";
import { runScenario } from "../../src/run";
import { simSettings } from "../../src/settings";

const settings = simSettings();

describe("Function: possibleTransitions", () => {
  it("lists Next, Default, each Choice rule, each Catch and each end, inside Map and Parallel states too", () => {
    const definition = {
      StartAt: "A",
      States: {
        A: { Type: "Choice", Choices: [{ Next: "B" }, { Next: "M" }], Default: "B" },
        B: { Type: "Task", Next: "M", Catch: [{ ErrorEquals: ["States.ALL"], Next: "Done" }] },
        M: { Type: "Map", ItemProcessor: { StartAt: "Inner", States: { Inner: { Type: "Pass", End: true } } }, Next: "Done" },
        Done: { Type: "Succeed" },
      },
    };
    expect([...possibleTransitions(definition)].sort()).toEqual(["A→B", "A→M", "B→Done", "B→M", "Done→(end)", "Inner→(end)", "M→Done"]);
    expect([...statesOf(possibleTransitions(definition))].sort()).toEqual(["A", "B", "Done", "Inner", "M"]);
  });
});

describe("Function: coverageOf", () => {
  it("counts the allowed transitions a run took and names the others", async () => {
    // Arrange: one valid message, applied
    const obs = await runScenario(settings, { seed: 1, pollers: 1, faults: [], ops: [{ op: "send", body: '{"tenantId":"t","orderId":"o","amount":10,"currency":"EUR"}' }] });

    // Act
    const figures = coverageOf(settings.definition, new Set(obs.stats.transitions));

    // Assert: the applied path of the default flow (claimed, invoked once for the batch, completed on its answer), and
    // not the duplicate's
    const applied = [transitionId("Claim", "Claimed"), transitionId("InvokeIfClaimed", "InvokeBatch"), transitionId("Answered", "Complete"), transitionId("Complete", "Processed"), transitionId("Processed", undefined)];
    expect(obs.stats.transitions).toEqual(expect.arrayContaining(applied));
    expect(figures.missed).toContain(transitionId("Decide", "Duplicate"));
    expect(figures.transitions + figures.missed.length).toBe(figures.transitionsTotal);
    expect(figures.transitionsTotal).toBe(possibleTransitions(settings.definition).size);
  });
});
