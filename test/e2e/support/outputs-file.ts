import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { StackOutputsError } from "./errors";

/**
 * Reads the outputs of one stack from a `cdktf deploy --outputs-file <file>` file, as a flat map keyed by
 * Terraform output name.
 *
 * cdktf writes `{ "<stack>": { ... } }`, with each stack's outputs nested by construct path and keyed by
 * construct id, e.g. `{ "payments-pipeline": { "effects-table-name": "…", "pipeline": { "output-queue_url": "…" } } }`.
 * The ids map back to output names by dropping an `output-` prefix and writing `-` as `_`. A flat
 * `{ "<stack>": { "queue_url": "…" } }` and `terraform output -json` entries (`{ "value": … }`) are read too.
 */
export function readStackOutputs(file: string, stack?: string): Record<string, unknown> {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new StackOutputsError(`no outputs file at ${path}: deploy with \`cdktf deploy --outputs-file ${file}\` or set E2E_OUTPUTS_FILE`);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new StackOutputsError(`${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!isObject(json) || Object.keys(json).length === 0) {
    throw new StackOutputsError(`${path} holds no stack: expected { "<stack name>": { <outputs> } } as cdktf writes it`);
  }
  const stacks = Object.keys(json);
  const name = stack ?? (stacks.length === 1 ? stacks[0] : undefined);
  if (name === undefined) {
    throw new StackOutputsError(`${path} holds several stacks (${stacks.join(", ")}): pick one with E2E_STACK`);
  }
  const outputs = json[name];
  if (!isObject(outputs)) {
    throw new StackOutputsError(`${path} has no stack "${name}" (stacks: ${stacks.join(", ")}): set E2E_STACK to one of them`);
  }
  return flattenOutputs(outputs);
}

/** Flattens construct-path nesting into `{ output name: value }`. */
export function flattenOutputs(tree: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  const visit = (node: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(node)) {
      if (isTerraformOutput(value)) flat[outputName(key)] = value.value;
      else if (isObject(value)) visit(value);
      else flat[outputName(key)] = value;
    }
  };
  visit(tree);
  return flat;
}

function outputName(constructId: string): string {
  return constructId.replace(/^output-/, "").replace(/-/g, "_");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTerraformOutput(value: unknown): value is { value: unknown } {
  return isObject(value) && "value" in value && ("type" in value || "sensitive" in value);
}
