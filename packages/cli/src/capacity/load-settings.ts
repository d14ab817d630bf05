import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { readCapacitySettings } from "./settings";
import type { CapacitySettings } from "./settings";

/** From `stackFile` when given, else the default stack synthesized in-process into a temporary folder (removed after). */
export function loadCapacitySettings(stackFile?: string): CapacitySettings {
  if (stackFile) return readCapacitySettings(stackFile);
  const outdir = mkdtempSync(join(tmpdir(), "capacity-synth-"));
  try {
    const synthesized = synthStack(stackConfigOf({}), { outdir }).stackFile;
    const settings = readCapacitySettings(synthesized);
    return { ...settings, config: { ...settings.config, source: "synthesized in-process (default stack)" } };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
