import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { StackFileError } from "./errors";

export type ResourceBody = Record<string, unknown>;

/** A synthesized CDKTF stack (`cdk.tf.json`). */
export interface StackFile {
  readonly path: string;
  /** Folder of the stack: asset paths in the JSON are relative to it. */
  readonly dir: string;
  readonly region: string;
  readonly resources: Record<string, Record<string, ResourceBody>>;
  readonly outputs: Record<string, { value: unknown }>;
}

export function loadStackFile(path: string): StackFile {
  if (!existsSync(path)) {
    throw new StackFileError(`no synthesized stack at ${path}: run \`npm run synth\` first (or pass the stack's cdk.tf.json)`);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new StackFileError(`${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const resources = json.resource as StackFile["resources"] | undefined;
  if (!resources || typeof resources !== "object") {
    throw new StackFileError(`${path} has no "resource" block: is it a synthesized CDKTF stack (cdktf.out/stacks/<stack>/cdk.tf.json)?`);
  }
  const providers = (json.provider as Record<string, { region?: string }[]> | undefined)?.aws ?? [];
  const region = providers[0]?.region;
  if (typeof region !== "string" || region.includes("${")) {
    throw new StackFileError(`${path} has no literal provider.aws region: the local cloud needs one to build ARNs`);
  }
  return { path, dir: dirname(path), region, resources, outputs: (json.output as StackFile["outputs"]) ?? {} };
}
