import type { TerraformStack } from "cdktf";
import type { PipelineOverrides } from "../../../src/app/pipeline-app";
import type { StackConfig } from "../../../src/app/config";
import { TEST_STACK } from "@effectively-once/testing";
import { buildStack, pipelineOf } from "@effectively-once/testing/stack";

/** Builds the test stack (no synth): the construct checks its props in its constructor. */
export function build(overrides: PipelineOverrides, config: StackConfig = TEST_STACK): () => TerraformStack {
  return () => buildStack(overrides, config);
}

/** The warnings the pipeline construct of a built stack attached (cdktf prints them at synth). */
export function warningsOf(stack: TerraformStack): string[] {
  return pipelineOf(stack)
    .node.metadata.filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data));
}
