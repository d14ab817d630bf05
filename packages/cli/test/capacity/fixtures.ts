import { CONFIG } from "../cost/fixtures";
import type { Figures } from "../../src/capacity/figures";
import type { CapacitySettings } from "../../src/capacity/settings";

/** The default stack's settings (batch 10, Map concurrency 10, visibility 540 s, no reserved concurrency). */
export const SETTINGS: CapacitySettings = { config: CONFIG, visibilityTimeoutSeconds: 540, executionTimeoutSeconds: 90, reservedConcurrency: null, lambdaRetries: 2 };

/** Round figures so every expectation can be worked out by hand: only new keys, no retries. */
export const ROUND: Figures = {
  label: "round test figures",
  executionMsPerBatch: 200,
  pipeOverheadMs: 50,
  functionMs: 100,
  batchFunctionMs: 100,
  dynamoCallScale: 1,
  mix: { duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, hotKeyShare: 0.01 },
};
