import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StackConfig } from "@effectively-once/pipeline";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { App, type TerraformStack } from "cdktf";
import { IdempotentPipeline } from "@effectively-once/pipeline";
import { loadApp } from "@effectively-once/local-cloud/stack";
import { synthStack as synthAppStack } from "@effectively-once/local-cloud/stack";

/** The app every whole-stack test runs: the payments example, chosen by name (tests import no example code). */
export const TEST_APP = "payments";

export const TEST_STACK: StackConfig = { stackName: "test-pipeline", region: "us-east-1", namePrefix: "test" };

/** The synthesized Terraform JSON (`cdk.tf.json`) as an object. */
export interface TerraformJson {
  resource: Record<string, Record<string, Record<string, unknown>>>;
  data?: Record<string, Record<string, Record<string, unknown>>>;
  output: Record<string, { value: unknown }>;
  provider: Record<string, unknown[]>;
  terraform: Record<string, unknown>;
}

export interface SynthesizedStack {
  readonly json: TerraformJson;
  readonly stackDir: string;
  /** Removes the temporary output folder. */
  cleanup(): void;
}

/** Synthesizes the payments stack into a fresh temp folder (no Testing.* helpers: they leave folders behind). */
export function synthStack(overrides: PipelineOverrides = {}, config: StackConfig = TEST_STACK): SynthesizedStack {
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

/** Every resource of one Terraform type, as [logical id, body] pairs. */
export function resourcesOfType(json: TerraformJson, type: string): [string, Record<string, unknown>][] {
  return Object.entries(json.resource[type] ?? {});
}

/** The single resource of a type whose `name`-like attribute ends with `suffix`. */
export function resourceNamed(json: TerraformJson, type: string, suffix: string): Record<string, unknown> {
  const matches = resourcesOfType(json, type).filter(([, body]) =>
    ["name", "function_name", "alarm_name", "dashboard_name"].some((k) => typeof body[k] === "string" && (body[k] as string).endsWith(suffix)),
  );
  if (matches.length !== 1) throw new Error(`expected one ${type} named *${suffix}, found ${matches.length}`);
  return matches[0][1];
}

/** `${aws_sqs_queue.x.arn}` for the resource `type` whose name ends with `suffix`. */
export function referenceTo(json: TerraformJson, type: string, suffix: string, attribute: string): string {
  const body = resourceNamed(json, type, suffix);
  const id = resourcesOfType(json, type).find(([, b]) => b === body)![0];
  return `\${${type}.${id}.${attribute}}`;
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
