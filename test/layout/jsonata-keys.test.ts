import { computedObjectKeys, definitionObjectKeyFindings } from "../../scripts/layout/jsonata-keys";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { simSettings } from "../../tools/sim/src/settings";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

describe("Layout: JSONata objects keyed by computed values", () => {
  it("finds the group-by and the computed key the batch grouping once used", () => {
    const old = "( $groups := $states.input{ body: [messageId] }; $merge([{}, $each($groups, function($ids) { { $ids[0]: $append([], $ids[[1..1000]]) } })]) )";
    expect(computedObjectKeys(old)).toEqual([expect.stringMatching(/^group-by/), expect.stringMatching(/^object key variable/)]);
  });

  it("lets objects keyed by string literals through", () => {
    expect(computedObjectKeys("{ 'reason': $r, \"id\": { 'S': $k } }")).toEqual([]);
  });

  it("finds none in the rendered pipeline definition, with the test parameters and with the default app", () => {
    expect(definitionObjectKeyFindings(renderPipelineDefinition(PIPELINE_TEST_PARAMS))).toEqual([]);
    expect(definitionObjectKeyFindings(simSettings().definition)).toEqual([]);
  });

  it("names the field of a definition that keys an object by a computed value", () => {
    expect(definitionObjectKeyFindings({ States: { A: { Assign: { x: "{% { $k: 1 } %}" } } } })).toEqual(["/States/A/Assign/x: object key variable at 5"]);
  });
});
