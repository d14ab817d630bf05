import { join, resolve } from "node:path";
import { stackConfigFromEnv, type StackConfig } from "@effectively-once/pipeline/settings";
import type { PipelineApp, PipelineOverrides } from "@effectively-once/pipeline";
import { appOf, loadApp } from "./apps";

export interface SynthResult {
  readonly outdir: string;
  /** Folder holding `cdk.tf.json` and the function assets: where `terraform` runs. */
  readonly stackDir: string;
  readonly stackFile: string;
}

/** The framework's `App` class, loaded on first use: cdktf 0.21 or CDK Terrain (`cdktn`), whichever the app installed. */
function frameworkApp(): new (options: { outdir: string; skipValidation: boolean }) => { synth(): void } {
  for (const framework of ["cdktf", "cdktn"]) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the framework is an optional peer dependency: a computed require keeps either one optional
      return (require(framework) as { App: new (options: { outdir: string; skipValidation: boolean }) => { synth(): void } }).App;
    } catch (error) {
      if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    }
  }
  throw new Error("synthesizing an app needs cdktf (0.21) or cdktn (0.24): install one of them next to @effectively-once/local-cloud");
}

/** Synthesizes an app's stack into `outdir` in this process (no cdktf CLI, no network). */
function synthApp(app: PipelineApp, config: StackConfig, options: { outdir?: string; overrides?: PipelineOverrides } = {}): SynthResult {
  process.env.CHECKPOINT_DISABLE ??= "1";
  const outdir = resolve(options.outdir ?? "cdktf.out");
  const App = frameworkApp();
  const cdktfApp = new App({ outdir, skipValidation: false });
  app.addStack(cdktfApp as unknown as Parameters<PipelineApp["addStack"]>[0], config, options.overrides);
  cdktfApp.synth();
  const stackDir = join(outdir, "stacks", config.stackName);
  return { outdir, stackDir, stackFile: join(stackDir, "cdk.tf.json") };
}

/** The app's stack config from the environment, with the app's own defaults (see `main.ts`). */
export function stackConfigOf(env: NodeJS.ProcessEnv, app: PipelineApp = loadApp(appOf(env))): StackConfig {
  return stackConfigFromEnv(env, app.defaults);
}

/** Synthesizes the app named by `options.app` (else `PIPELINE_APP`, else payments). */
export function synthStack(config: StackConfig, options: { app?: string | PipelineApp; outdir?: string; overrides?: PipelineOverrides } = {}): SynthResult {
  const app = typeof options.app === "object" ? options.app : loadApp(options.app);
  return synthApp(app, config, options);
}
