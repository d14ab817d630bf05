import type { PipelineApp } from "@effectively-once/pipeline";
import { loadStackExport } from "@effectively-once/local-cloud/stack";
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

  it("is read from the light module the stack re-exports it from (the same object), else from the stack itself (no such module, or one without the member)", () => {
    // Arrange
    const what = "the simulation's hook";

    // Act
    const light = loadStackExport<AppSimulation>("simulation", what, "payments", "simulation");
    const withoutLight = loadStackExport<AppSimulation>("simulation", what, "payments", "no-such-module");
    // A module of that name that exports no such member is the app's own (the profile here): the stack decides.
    const notTheLightOne = loadStackExport<AppSimulation>("simulation", what, "payments", "profile");

    // Assert
    expect(light).toBe(simulation);
    expect(withoutLight).toBe(simulation);
    expect(notTheLightOne).toBe(simulation);
  });
});
