import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providerConfig, readStack, type SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";

/** `stackFile` when given, else the stack of `PIPELINE_APP` synthesized in-process into a temporary folder (removed after). */
export function loadStack(stackFile: string | undefined, env: NodeJS.ProcessEnv): SynthesizedStack {
  if (stackFile) return readStack(stackFile);
  const outdir = mkdtempSync(join(tmpdir(), "deployer-synth-"));
  try {
    return readStack(synthStack(stackConfigOf(env), { outdir }).stackFile);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The provider's literal region, if the stack writes one (it may come from the environment at plan time instead). */
export function stackRegion(stack: SynthesizedStack): string | undefined {
  const region = providerConfig(stack, "aws")?.region;
  return typeof region === "string" && !region.includes("${") ? region : undefined;
}
