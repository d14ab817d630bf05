import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StackConfig } from "@effectively-once/pipeline";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { readStackFile } from "./stack-config";
import type { DeployedConfig } from "./types";

/**
 * The deployed configuration: read from `stackFile` when given, else synthesized in-process into a temporary folder
 * (removed afterwards) from the same code `npm run synth` uses.
 */
export function loadDeployedConfig(options: { stackFile?: string; stack?: StackConfig } = {}): DeployedConfig {
  if (options.stackFile) return readStackFile(options.stackFile);
  const outdir = mkdtempSync(join(tmpdir(), "cost-synth-"));
  try {
    const { stackFile } = synthStack(options.stack ?? stackConfigOf({}), { outdir });
    return { ...readStackFile(stackFile), source: "synthesized in-process (default stack)" };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
