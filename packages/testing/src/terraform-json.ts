/**
 * The test stack's names and the helpers that read its synthesized Terraform JSON: plain data, so a suite that only
 * reads JSON (or names the stack) loads neither cdktf nor the construct. Synthesizing is `@effectively-once/testing/stack`.
 */
import type { StackConfig } from "@effectively-once/pipeline";

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
