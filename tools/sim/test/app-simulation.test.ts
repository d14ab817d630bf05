import type { PipelineApp } from "@effectively-once/pipeline";
import { app, simulation } from "../../../examples/payments/stack";
import type { AppSimulation } from "../src/settings";
import { simSettings } from "../src/settings";

describe("Type: AppSimulation", () => {
  it("is the payments example's own export, type-checked here, not a member of the published PipelineApp", async () => {
    // Arrange
    const hook: AppSimulation = simulation;
    const published: PipelineApp = app;

    // Act
    const options = await hook.handlerOptions();

    // Assert
    expect(Object.keys(published).sort()).toEqual(["addStack", "defaults"]);
    expect(typeof options.sideEffect).toBe("function");
    expect(simSettings().props.operation).toBe(hook.domain.operation);
  });
});
