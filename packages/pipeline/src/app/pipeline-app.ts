import type { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import type { IdempotentPipelineProps } from "../constructs/props";
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
}
