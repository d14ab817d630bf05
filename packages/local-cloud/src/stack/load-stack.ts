import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { literalOutputs, loadStackFile } from "../provision";
import type { StackConfig } from "@effectively-once/pipeline";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { synthStack } from "./synth";
import { OutputName } from "@effectively-once/contract";

/** Names the load tools need before the cloud boots (fault rules match on them). */
export interface LoadStackNames {
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  readonly effectsTable: string;
  readonly functionName: string;
  readonly operation: string;
}

export interface LoadStack {
  readonly stackFile: string;
  readonly names: LoadStackNames;
  /** Removes the temporary output folder. */
  cleanup(): void;
}

/**
 * Test-sized windows within the construct's invariants for the default flow (one invocation per batch), so crashes and
 * retries resolve in seconds: the 110 s execution timeout covers the worst batch invoked once (claim phase 3 × (7 + 7)
 * s of ledger retries + 3 s of quarantine = 45, the batch's invocation 2 × (10 s Init + 2 s) + 1 s = 25, the settle
 * phase 25 s invoked alone + 10 s of release and quarantine = 35, the fate metrics call 2: 107 s); visibility 660 s ≥ 6
 * × that (locally, retried records come back after 1 s anyway); lease 8 s ≥ 2 invocations × the 2 s function timeout
 * × 2 attempts and below the visibility timeout; no batching window (a batch goes as soon as one receive fills it).
 */
export const LOAD_WINDOWS = {
  executionTimeoutSeconds: 110,
  visibilityTimeoutSeconds: 660,
  leaseSeconds: 8,
  function: { timeoutSeconds: 2 },
  lambdaRetries: 1,
  maximumBatchingWindowSeconds: 0,
} as const satisfies PipelineOverrides;

const OUTPUTS = {
  ledgerTable: OutputName.LedgerTable,
  idempotencyTable: OutputName.IdempotencyTable,
  effectsTable: OutputName.EffectsTable,
  functionName: OutputName.FunctionName,
  operation: OutputName.Operation,
} as const;

/** Synthesizes the app's stack with the load windows (plus `overrides`) into a temporary folder. */
export function synthLoadStack(config: StackConfig, overrides: PipelineOverrides = {}, app?: string): LoadStack {
  const outdir = mkdtempSync(join(tmpdir(), `${config.stackName}-`));
  const cleanup = () => rmSync(outdir, { recursive: true, force: true });
  try {
    const merged: PipelineOverrides = { ...LOAD_WINDOWS, ...overrides, function: { ...LOAD_WINDOWS.function, ...overrides.function } };
    const { stackFile } = synthStack(config, { app, outdir, overrides: merged });
    return { stackFile, names: namesOf(stackFile), cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** Resolves the outputs naming the tables, the function and the operation from the synthesized JSON. */
export function namesOf(stackFile: string): LoadStackNames {
  const outputs = literalOutputs(loadStackFile(stackFile), Object.values(OUTPUTS));
  if (!outputs[OutputName.EffectsTable]) throw new Error(NO_EFFECT_JOURNAL);
  return Object.fromEntries(Object.entries(OUTPUTS).map(([field, name]) => [field, outputs[name]])) as unknown as LoadStackNames;
}

/** Said before anything boots: without the journal the load tools cannot count a key's applications. */
const NO_EFFECT_JOURNAL =
  `the stack has no ${OutputName.EffectsTable} output: soak and bench count each key's applications in the function's ` +
  "effect journal (an EffectJournalTable the side effect writes), and this stack's function keeps none (an HTTP call, " +
  "for example). Give the function an EffectJournalTable (functions/README.md), or check the stack with " +
  "`effectively-once verify --target local`";
