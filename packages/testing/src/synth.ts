/**
 * The test stack for `@effectively-once/testing/stack`: synthesized once per run and shared, where the run allows it.
 *
 * The default tier's global setup (test/jest/synth-cache-setup.js) names a folder in `PIPELINE_TEST_SYNTHS`. A synth whose
 * inputs are plain JSON is then made once, by whichever suite asks first, and every later suite of the run reads the
 * same files: read-only (its `cleanup()` keeps them; the global teardown removes the folder). Without the folder (the
 * slow tier, whose terraform runs write into the stack's folder, or a script) every call synthesizes afresh.
 * cdktf, the construct and the example load on first real use, so a suite served from the folder never loads them.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { IdempotentPipeline, PipelineOverrides, StackConfig } from "@effectively-once/pipeline";
import type { TerraformStack } from "cdktf";
import type * as Build from "./build";
import { TEST_STACK, type SynthesizedStack, type TerraformJson } from "./terraform-json";

/** The variable naming the run's folder of shared synths. */
const SHARED_SYNTHS_ENV = "PIPELINE_TEST_SYNTHS";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first real use: a shared synth needs none of it
const build = (): typeof Build => require("./build") as typeof Build;

/** Synthesizes the payments stack (the run's shared copy when there is one, else a fresh temp folder). */
export function synthStack(overrides: PipelineOverrides = {}, config: StackConfig = TEST_STACK): SynthesizedStack {
  const folder = process.env[SHARED_SYNTHS_ENV];
  if (!folder || !isPlainJson(overrides) || !isPlainJson(config)) return build().freshSynth(overrides, config);
  const entry = join(folder, createHash("sha256").update(JSON.stringify([overrides, config])).digest("hex").slice(0, 32));
  if (!existsSync(join(entry, "stack.json"))) publish(entry, build().freshSynth(overrides, config));
  const { stackDir } = JSON.parse(readFileSync(join(entry, "stack.json"), "utf8")) as { stackDir: string };
  const dir = join(entry, "out", stackDir);
  const json = JSON.parse(readFileSync(join(dir, "cdk.tf.json"), "utf8")) as TerraformJson;
  return { json, stackDir: dir, cleanup: () => undefined };
}

/** Moves a fresh synth into the run's folder in one rename; when another worker got there first, its copy stands. */
function publish(entry: string, fresh: SynthesizedStack): void {
  const outdir = join(fresh.stackDir, "..", "..");
  const staging = `${entry}.${randomUUID()}`;
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "stack.json"), JSON.stringify({ stackDir: relative(outdir, fresh.stackDir) }));
  renameSync(outdir, join(staging, "out"));
  try {
    renameSync(staging, entry);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Only inputs that JSON spells exactly may share a synth (a function or an `undefined` member would vanish from the key). */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(value as object).every(isPlainJson);
}

/** Builds the test app's stack (the payments example, by name) in a fresh cdktf App without synthesizing. */
export function buildStack(overrides: PipelineOverrides = {}, config: StackConfig = TEST_STACK): TerraformStack {
  return build().buildStack(overrides, config);
}

/** The pipeline construct of a built stack. */
export function pipelineOf(stack: TerraformStack): IdempotentPipeline {
  return build().pipelineOf(stack);
}
