import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { TargetError, UsageError } from "./errors";

/** Outputs of one stack, under the Terraform output names (`queue_url`, `dlq_url`, …). */
export interface StackOutputs {
  readonly stackName?: string;
  readonly outputs: Record<string, unknown>;
}

/**
 * Reads the outputs of a deployed stack. Accepted shapes:
 * - `cdktf deploy --outputs-file`: stack name → outputs **nested by construct id** (cdktf 0.21 writes
 *   `{"<stack>": {"effects-table-name": …, "pipeline": {"output-queue_url": …}}}`);
 * - stack name → outputs under their Terraform names (`{"<stack>": {"queue_url": …}}`);
 * - `terraform output -json` (`{"queue_url": {"value": …, "type": …}}`), or any of these without the stack level.
 * Construct ids are turned back into Terraform names the way the pipeline construct names its outputs
 * (`output-queue_url` → `queue_url`, `effects-table-name` → `effects_table_name`).
 */
export function readOutputsFile(file: string, stack?: string): StackOutputs {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new TargetError(`cannot read the outputs file ${path} (${code}): write it with \`cdktf deploy --outputs-file ${file}\``, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TargetError(`the outputs file ${path} is not JSON (${(error as Error).message}): write it with \`cdktf deploy --outputs-file ${file}\``, { cause: error });
  }
  if (!isObject(json)) throw new TargetError(`the outputs file ${path} must hold a JSON object (stack name → outputs)`);
  return selectStack(json, path, stack);
}

/** Picks the stack (by --stack, or the only one) and flattens its outputs to Terraform names. */
function selectStack(json: Record<string, unknown>, path: string, stack?: string): StackOutputs {
  if (stack !== undefined) {
    const outputs = json[stack];
    if (!isObject(outputs)) {
      throw new TargetError(`the outputs file ${path} has no stack "${stack}"; it holds: ${stackNames(json).join(", ") || "none"}`);
    }
    return { stackName: stack, outputs: flattenOutputs(outputs) };
  }
  // Leaves at the top level: the file is one stack's outputs without the stack level (e.g. `terraform output -json`).
  if (Object.values(json).some((value) => !isObject(value) || isTerraformOutput(value))) return { outputs: flattenOutputs(json) };
  const stacks = stackNames(json);
  if (stacks.length === 1) return { stackName: stacks[0], outputs: flattenOutputs(json[stacks[0]] as Record<string, unknown>) };
  if (stacks.length === 0) throw new TargetError(`the outputs file ${path} holds no stack outputs (expected e.g. {"<stack>": {"queue_url": …}})`);
  throw new UsageError(`the outputs file ${path} holds several stacks (${stacks.join(", ")}): pick one with --stack`);
}

/** Leaves of the (possibly construct-nested) outputs, keyed by Terraform output name. */
function flattenOutputs(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (isTerraformOutput(value)) out[terraformName(key)] = value.value;
    else if (isObject(value)) Object.assign(out, flattenOutputs(value));
    else out[terraformName(key)] = value;
  }
  return out;
}

function terraformName(constructId: string): string {
  return constructId.replace(/^output-/, "").replace(/-/g, "_");
}

/** Top-level entries that hold outputs. */
function stackNames(json: Record<string, unknown>): string[] {
  return Object.entries(json)
    .filter(([, value]) => isObject(value) && !isTerraformOutput(value))
    .filter(([, value]) => Object.keys(flattenOutputs(value as Record<string, unknown>)).length > 0)
    .map(([name]) => name);
}

function isTerraformOutput(value: unknown): value is { value: unknown } {
  return isObject(value) && "value" in value && ("type" in value || "sensitive" in value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
