import type { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import type { IdempotentPipelineProps, PipelineDomain } from "../constructs/props";
import type { PipelineHandlerOptions } from "../../handler/pipeline-handler";
import type { StackConfig } from "./config";

/** Per-environment overrides of the pipeline props (e.g. test-sized windows for the local end-to-end suite). */
export type PipelineOverrides = Partial<Omit<IdempotentPipelineProps, "namePrefix" | "function">> & {
  /** Overrides of the function's props (its `entry` stays the stack's). */
  readonly function?: Partial<IdempotentPipelineProps["function"]>;
};

/**
 * A stack of the construct the project's tools can synthesize and run (`npm start`, soak, bench, cost, plan
 * review, rehearsal): what `examples/<name>/stack.ts` exports as `app`. The tools pass test-sized windows or a
 * changed setting through `overrides`; the stack hands them to its `IdempotentPipeline`.
 */
export interface PipelineApp {
  /** Names used when the environment sets none (`PIPELINE_STACK`, `PIPELINE_NAME_PREFIX`). */
  readonly defaults: Pick<StackConfig, "stackName" | "namePrefix">;
  /** Adds the stack (provider, pipeline, the domain's own resources) to `scope`. */
  addStack(scope: Construct, config: StackConfig, overrides?: PipelineOverrides): TerraformStack;
  /**
   * What the deterministic simulation (`npm run fuzz`) runs in process instead of the deployed bundle: the domain
   * the stack hands its pipeline and the handler options its function file wraps. Optional: only an app the
   * simulation targets needs it.
   */
  readonly simulation?: {
    /** The domain the stack hands its pipeline (key, operation, payload fields, field rules). */
    readonly domain: PipelineDomain;
    /** Loads the options the function file passes to `createPipelineHandler`. */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any payload, result and resources
    handlerOptions(): Promise<PipelineHandlerOptions<any, any, any>>;
  };
}
