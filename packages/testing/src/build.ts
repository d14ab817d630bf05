/** Synthesizing and building the test stack for real: cdktf, the construct, the example (loaded by synth.ts on first use). */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StackConfig } from "@effectively-once/pipeline";
import { TEST_APP, TEST_STACK, type SynthesizedStack, type TerraformJson } from "./terraform-json";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { App, type TerraformStack } from "cdktf";
import { IdempotentPipeline } from "@effectively-once/pipeline";
import { loadApp } from "@effectively-once/local-cloud/stack";
import { synthStack as synthAppStack } from "@effectively-once/local-cloud/stack";

/** Synthesizes the payments stack into a fresh temp folder (no Testing.* helpers: they leave folders behind). */
export function freshSynth(overrides: PipelineOverrides = {}, config: StackConfig = TEST_STACK): SynthesizedStack {
  const outdir = mkdtempSync(join(tmpdir(), "pipeline-synth-"));
  try {
    const { stackFile, stackDir } = synthAppStack(config, { app: TEST_APP, outdir, overrides });
    const json = JSON.parse(readFileSync(stackFile, "utf8")) as TerraformJson;
    return { json, stackDir, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

/** Builds the test app's stack (the payments example, by name) in a fresh cdktf App without synthesizing. */
export function buildStack(overrides: PipelineOverrides = {}, config: StackConfig = TEST_STACK): TerraformStack {
  return loadApp(TEST_APP).addStack(new App(), config, overrides);
}

/** The pipeline construct of a built stack. */
export function pipelineOf(stack: TerraformStack): IdempotentPipeline {
  const found = stack.node.findAll().find((c): c is IdempotentPipeline => c instanceof IdempotentPipeline);
  if (!found) throw new Error(`stack ${stack.node.id} holds no IdempotentPipeline`);
  return found;
}
