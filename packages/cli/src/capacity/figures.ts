import { readFileSync } from "node:fs";
import { DEFAULT_ASSUMPTIONS, type Assumptions } from "../cost/assumptions";
import { DESIGN_PATHS, Path, PATHS, Table } from "../cost/paths";
import { deliveriesByPath } from "../cost/scenario";
import { dynamoUnits } from "../cost/usage";
import { pathLatencyMs } from "../cost/workflow-metrics";
import { CapacityInputError } from "./errors";

/** The traffic mix the planner assumes (the cost model's defaults unless overridden). */
export interface TrafficMix {
  readonly duplicateRatio: number;
  readonly quarantineRatio: number;
  /** Extra deliveries per message that end in retry: each stays in flight for a visibility timeout. */
  readonly retryRatio: number;
  /** Share of all messages that carry the single hottest business key. */
  readonly hotKeyShare: number;
}

/** Per-message and per-batch figures; `label` says where they come from (AWS-typical defaults or a local bench). */
export interface Figures {
  readonly label: string;
  /** Wall time of one execution of a full batch, from StartSyncExecution to its answer. */
  readonly executionMsPerBatch: number;
  /** What a pipe poller spends per batch besides the execution (receive, delete). */
  readonly pipeOverheadMs: number;
  /** Duration of one invocation of the function (a new key). */
  readonly functionMs: number;
  /**
   * Duration of one batch invocation (`batchInvocation`): the records run at once up to the Map's concurrency, so a
   * wave of records takes one record's time (the AWS-typical assumption: `functionMs` per wave).
   */
  readonly batchFunctionMs: number;
  /** Measured DynamoDB calls ÷ the model's (1 = the model's counts; a bench file sets it). */
  readonly dynamoCallScale: number;
  readonly mix: TrafficMix;
  /**
   * The function's mean invocation duration the local cloud measured in a bench run (a bench figures file), printed
   * beside the AWS-typical figure the planner uses: the real function on the real emulators, but this machine's CPU,
   * not AWS's network latencies.
   */
  readonly measuredFunction?: MeasuredFunction;
}

/** One invocation's duration as a bench run measured it (`npx effectively-once bench --write-figures`). */
export interface MeasuredFunction {
  /** Mean duration of one invocation, ms (Lambda's REPORT Duration as the local cloud times it). */
  readonly ms: number;
  /** The bench's stack invoked once per batch (true) or once per claimed record. */
  readonly batchInvocation: boolean;
  /** Invocations per message in that run (duplicates and retries included). */
  readonly invocationsPerMessage: number;
}

export const DEFAULT_MIX: TrafficMix = { duplicateRatio: 0, quarantineRatio: 0.001, retryRatio: 0.01, hotKeyShare: 0.01 };
/** ReceiveMessage + DeleteMessageBatch, same region: a typical round trip each (assumption). */
const DEFAULT_PIPE_OVERHEAD_MS = 30;

/** AWS-typical figures: the cost model's latencies (packages/cli/src/cost/assumptions.ts) run through the stack's batch and Map concurrency. */
export function defaultFigures(batchSize: number, mapConcurrency: number, a: Assumptions = DEFAULT_ASSUMPTIONS, mix: TrafficMix = DEFAULT_MIX): Figures {
  return {
    label: "AWS-typical defaults (packages/cli/src/cost/assumptions.ts latencies)",
    executionMsPerBatch: modelExecutionMs(batchSize, mapConcurrency, a),
    pipeOverheadMs: DEFAULT_PIPE_OVERHEAD_MS,
    functionMs: a.functionMs,
    batchFunctionMs: batchInvocationMs(batchSize, mapConcurrency, a.functionMs),
    dynamoCallScale: 1,
    mix,
  };
}

/** One batch invocation: a record's time per wave of `PIPELINE_BATCH_CONCURRENCY` (the Map's concurrency). */
function batchInvocationMs(batchSize: number, mapConcurrency: number, functionMs: number): number {
  return Math.ceil(batchSize / Math.max(1, Math.min(mapConcurrency, batchSize))) * functionMs;
}

/** Start plus one slowest record (a new key) per wave of Map concurrency. */
function modelExecutionMs(batchSize: number, mapConcurrency: number, a: Assumptions): number {
  const waves = Math.ceil(batchSize / Math.max(1, Math.min(mapConcurrency, batchSize)));
  return a.sfnStartMs + waves * pathLatencyMs(DESIGN_PATHS[Path.NewKey], a);
}

/** Write and read units per message, per table, over the mix (a retry is one more delivery). */
export function unitsPerMessage(mix: TrafficMix, a: Assumptions = DEFAULT_ASSUMPTIONS): Record<Table, { wru: number; rru: number }> {
  const deliveries = deliveriesByPath({ messages: 1, duplicateRatio: mix.duplicateRatio, quarantineRatio: mix.quarantineRatio, retryRatio: mix.retryRatio, batchSize: 1 });
  return dynamoUnits(DESIGN_PATHS, deliveries, a);
}

/** DynamoDB calls per message the model counts over a mix (to compare with a measured count). */
export function modelCallsPerMessage(mix: TrafficMix): number {
  const deliveries = deliveriesByPath({ messages: 1, duplicateRatio: mix.duplicateRatio, quarantineRatio: mix.quarantineRatio, retryRatio: mix.retryRatio, batchSize: 1 });
  return PATHS.reduce((sum, path) => sum + DESIGN_PATHS[path].dynamo.length * deliveries[path], 0);
}

/** The file `npx effectively-once bench --write-figures F` writes: one case per batch size. */
export interface BenchFiguresFile {
  readonly kind: "pipeline-figures";
  readonly label: string;
  readonly duplicateRatio: number;
  readonly cases: readonly BenchFiguresCase[];
}

export interface BenchFiguresCase {
  readonly batchSize: number;
  readonly executionMsPerBatch: number;
  readonly dynamoCallsPerMessage: number;
  readonly throughput: number;
  /** Whether the bench's stack invoked the function once per batch (absent in files from before it was written). */
  readonly batchInvocation?: boolean;
  readonly invocationsPerMessage?: number;
  /** Mean duration of one function invocation the local cloud measured, ms. */
  readonly functionMsPerInvocation?: number;
}

/** Figures from a bench file for the stack's batch size; what the bench cannot measure keeps its default. */
export function figuresFromFile(path: string, base: Figures, batchSize: number): Figures {
  let raw: BenchFiguresFile;
  try {
    raw = JSON.parse(readFileSync(path, "utf8")) as BenchFiguresFile;
  } catch (error) {
    throw new CapacityInputError(`--figures ${path}: cannot read it as JSON (${(error as Error).message}); write one with npx effectively-once bench --write-figures ${path}`, { cause: error });
  }
  if (raw?.kind !== "pipeline-figures" || !Array.isArray(raw.cases)) {
    throw new CapacityInputError(`--figures ${path}: not a figures file (kind "pipeline-figures" with cases); see docs/capacity.md for the format`);
  }
  const match = raw.cases.find((c) => c.batchSize === batchSize);
  if (!match) {
    throw new CapacityInputError(`--figures ${path}: no case for batch size ${batchSize} (has ${raw.cases.map((c) => c.batchSize).join(", ")}); rerun npx effectively-once bench --batch-sizes ${batchSize} --write-figures ${path}`);
  }
  for (const field of ["executionMsPerBatch", "dynamoCallsPerMessage"] as const) {
    if (!(typeof match[field] === "number" && match[field] > 0)) throw new CapacityInputError(`--figures ${path}: cases[batch ${batchSize}].${field} must be a number > 0`);
  }
  const benchMix = { ...base.mix, duplicateRatio: Number(raw.duplicateRatio ?? 0) };
  return {
    ...base,
    label: `${raw.label} (function duration: default)`,
    executionMsPerBatch: match.executionMsPerBatch,
    // The bench's batch time already holds the receive and delete.
    pipeOverheadMs: 0,
    dynamoCallScale: match.dynamoCallsPerMessage / modelCallsPerMessage(benchMix),
    ...(typeof match.functionMsPerInvocation === "number" && match.functionMsPerInvocation > 0
      ? { measuredFunction: { ms: match.functionMsPerInvocation, batchInvocation: match.batchInvocation === true, invocationsPerMessage: match.invocationsPerMessage ?? 0 } }
      : {}),
  };
}
