import { App } from "cdktf";
import { join, resolve } from "node:path";
import { stackConfigFromEnv, type StackConfig } from "@effectively-once/pipeline/internal/src/app/config";
import type { PipelineApp, PipelineOverrides } from "@effectively-once/pipeline/internal/src/app/example";
import { APP_ENV, loadApp } from "./apps";

export interface SynthResult {
  readonly outdir: string;
  /** Folder holding `cdk.tf.json` and the function assets: where `terraform` runs. */
  readonly stackDir: string;
  readonly stackFile: string;
}

/** Synthesizes an app's stack into `outdir` in this process (no cdktf CLI, no network). */
function synthApp(app: PipelineApp, config: StackConfig, options: { outdir?: string; overrides?: PipelineOverrides } = {}): SynthResult {
  process.env.CHECKPOINT_DISABLE ??= "1";
  const outdir = resolve(options.outdir ?? "cdktf.out");
  const cdktfApp = new App({ outdir, skipValidation: false });
  app.addStack(cdktfApp, config, options.overrides);
  cdktfApp.synth();
  const stackDir = join(outdir, "stacks", config.stackName);
  return { outdir, stackDir, stackFile: join(stackDir, "cdk.tf.json") };
}

/** The app's stack config from the environment, with the app's own defaults (see `main.ts`). */
export function stackConfigOf(env: NodeJS.ProcessEnv, app: PipelineApp = loadApp(env[APP_ENV] || undefined)): StackConfig {
  return stackConfigFromEnv(env, app.defaults);
}

/** Synthesizes the app named by `options.app` (else `PIPELINE_APP`, else payments). */
export function synthStack(config: StackConfig, options: { app?: string | PipelineApp; outdir?: string; overrides?: PipelineOverrides } = {}): SynthResult {
  const app = typeof options.app === "object" ? options.app : loadApp(options.app);
  return synthApp(app, config, options);
}
