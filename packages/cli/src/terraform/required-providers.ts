import { join } from "node:path";
import { readStack, StackJsonError } from "@effectively-once/local-cloud/terraform-json";
import { TerraformToolError } from "./errors";

/**
 * The providers a synthesized stack asks for, read from its `terraform.required_providers`: the offline helpers look
 * for exactly these in the mirror, so a stack built with another provider package (e.g. @cdktn/provider-aws 25.x →
 * hashicorp/aws 6.x) is checked against what it really needs, not against a version this code was written for.
 */
export interface ProviderRequirement {
  /** Local name in the configuration, e.g. `aws`. */
  readonly name: string;
  /** Full source address, e.g. `registry.terraform.io/hashicorp/aws`. */
  readonly source: string;
  /** The version constraint as synthesized, e.g. `5.100.0`. */
  readonly version: string;
  /** The version when the constraint pins one exactly (`5.100.0`, `= 5.100.0`); undefined for ranges. */
  readonly exactVersion?: string;
}

const DEFAULT_HOST = "registry.terraform.io";
const DEFAULT_NAMESPACE = "hashicorp";

/** Terraform's reading of a source address: `aws` and `hashicorp/aws` both mean `registry.terraform.io/hashicorp/aws`. */
export function fullSource(source: string): string {
  const parts = source.split("/");
  if (parts.length === 1) return `${DEFAULT_HOST}/${DEFAULT_NAMESPACE}/${parts[0]}`;
  if (parts.length === 2) return `${DEFAULT_HOST}/${source}`;
  return source;
}

function exact(version: string): string | undefined {
  return /^=?\s*(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(version.trim())?.[1];
}

/** Requirements of a parsed `cdk.tf.json`; a stack without `required_providers` needs none. */
export function requiredProviders(stack: unknown, where = "the stack"): ProviderRequirement[] {
  const block = (stack as { terraform?: { required_providers?: unknown } })?.terraform?.required_providers;
  if (block === undefined) return [];
  if (typeof block !== "object" || block === null) throw new TerraformToolError(`terraform.required_providers in ${where} is not an object`);
  return Object.entries(block as Record<string, unknown>).map(([name, value]) => {
    const { source, version } = (value ?? {}) as { source?: unknown; version?: unknown };
    if (typeof version !== "string" || version.trim() === "") {
      throw new TerraformToolError(`terraform.required_providers.${name}.version in ${where} is missing: an offline init needs a pinned provider version`);
    }
    return { name, source: fullSource(typeof source === "string" ? source : name), version, exactVersion: exact(version) };
  });
}

/** Requirements of the `cdk.tf.json` in a synthesized stack directory. */
export function readRequiredProviders(stackDir: string): ProviderRequirement[] {
  const file = join(stackDir, "cdk.tf.json");
  try {
    return requiredProviders(readStack(file), file);
  } catch (error) {
    if (error instanceof StackJsonError) throw new TerraformToolError(`cannot read ${file}: synthesize the stack first (your synth command, e.g. npx cdktf synth)`, { cause: error });
    throw error;
  }
}

/** `hashicorp/aws 5.100.0`, as the messages name a requirement. */
export function describeRequirement(r: ProviderRequirement): string {
  return `${r.source.replace(`${DEFAULT_HOST}/`, "")} ${r.version}`;
}
