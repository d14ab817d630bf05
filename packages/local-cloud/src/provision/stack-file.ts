import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { providerConfig, readStack, StackJsonError, type Block, type SynthesizedStack } from "../terraform-json";
import { StackFileError } from "./errors";

export type ResourceBody = Block;

/** A synthesized CDKTF stack (`cdk.tf.json`) with what the local cloud needs besides its blocks. */
export interface StackFile extends SynthesizedStack {
  readonly path: string;
  /** Folder of the stack: asset paths in the JSON are relative to it. */
  readonly dir: string;
  readonly region: string;
}

export function loadStackFile(path: string): StackFile {
  if (!existsSync(path)) {
    throw new StackFileError(`no synthesized stack at ${path}: run \`npm run synth\` first (or pass the stack's cdk.tf.json)`);
  }
  let stack: SynthesizedStack;
  try {
    stack = readStack(path);
  } catch (error) {
    if (error instanceof StackJsonError) throw new StackFileError(error.message, { cause: error });
    throw error;
  }
  if (Object.keys(stack.resources).length === 0) {
    throw new StackFileError(`${path} has no "resource" block: is it a synthesized CDKTF stack (cdktf.out/stacks/<stack>/cdk.tf.json)?`);
  }
  const region = providerConfig(stack, "aws")?.region;
  if (typeof region !== "string" || region.includes("${")) {
    throw new StackFileError(`${path} has no literal provider.aws region: the local cloud needs one to build ARNs`);
  }
  return { ...stack, path, dir: dirname(path), region };
}
