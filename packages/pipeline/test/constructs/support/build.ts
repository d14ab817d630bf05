import type { TerraformStack } from "cdktf";
import type { PipelineOverrides } from "../../../src/app/pipeline-app";
import type { StackConfig } from "../../../src/app/config";
import { InvalidPropError } from "../../../src/constructs";
import { buildStack, pipelineOf, TEST_STACK } from "@effectively-once/testing";

/** Builds the test stack (no synth): the construct checks its props in its constructor. */
export function build(overrides: PipelineOverrides, config: StackConfig = TEST_STACK): () => TerraformStack {
  return () => buildStack(overrides, config);
}

/** The InvalidPropError a build throws (fails the test when it throws nothing, or something else). */
export function errorOf(fn: () => unknown): InvalidPropError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidPropError) return error;
    throw error;
  }
  throw new Error("expected an InvalidPropError, nothing was thrown");
}

/** The warnings the pipeline construct of a built stack attached (cdktf prints them at synth). */
export function warningsOf(stack: TerraformStack): string[] {
  return pipelineOf(stack)
    .node.metadata.filter((m) => m.type === "@cdktf/warn")
    .map((m) => String(m.data));
}
