import { App } from "cdktf";
import { join, resolve } from "node:path";
import type { StackConfig } from "../app/config";
import { PaymentsPipelineStack, type PipelineOverrides } from "./payments-stack";

export interface SynthResult {
  readonly outdir: string;
  /** Folder holding `cdk.tf.json` and the function assets: where `terraform` runs. */
  readonly stackDir: string;
  readonly stackFile: string;
}

/** Synthesizes the payments stack into `outdir` in this process (no cdktf CLI, no network). */
export function synthPaymentsStack(config: StackConfig, options: { outdir?: string; overrides?: PipelineOverrides } = {}): SynthResult {
  process.env.CHECKPOINT_DISABLE ??= "1";
  const outdir = resolve(options.outdir ?? "cdktf.out");
  const app = new App({ outdir, skipValidation: false });
  new PaymentsPipelineStack(app, config, options.overrides);
  app.synth();
  const stackDir = join(outdir, "stacks", config.stackName);
  return { outdir, stackDir, stackFile: join(stackDir, "cdk.tf.json") };
}
