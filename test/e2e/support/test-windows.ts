// The local end-to-end suites' windows, in a file of their own: test/stack/invariants.test.ts checks the construct
// accepts them without loading the local cloud that local-target.ts boots.
import type { PipelineOverrides } from "@effectively-once/pipeline";

/**
 * Test-sized windows within the construct's invariants for the default flow, one invocation per batch (execution
 * timeout ≥ the worst batch, visibility ≥ 6 × the execution timeout, lease ≥ 2 invocations × the function timeout ×
 * invoke attempts and below the visibility timeout), no batching window. They are roomy on purpose: on a busy 2-core
 * machine five concurrent cold starts can take seconds and a batch invocation of 10 new keys ran 4.7 s on average
 * (load 22; `test/e2e/batch-invocation.test.ts` uses this function timeout), and a function or execution timeout that
 * is not the subject of a scenario would add a legitimate second downstream call (a crash window).
 * Scenarios about timeouts shorten them through `overrides`.
 */
export const TEST_WINDOWS = {
  executionTimeoutSeconds: 90,
  visibilityTimeoutSeconds: 540,
  // 2 invocations (the batch's, then a record's own) × 8 s × 2 attempts.
  leaseSeconds: 32,
  function: { timeoutSeconds: 8 },
  lambdaRetries: 1,
  // One ledger retry: the worst batch is then claim phase 3 × (1 + 1) + 3 = 9 + batch invoke 2 × (10 s Init + 8) + 1 = 37
  // + settle 37 + (1 + 3) = 41 + fate metrics 2 = 89 s, within 90 (per record, batchInvocation: false: 49 s).
  ledgerRetry: { intervalSeconds: 1, maxAttempts: 1, backoffRate: 1 },
  maximumBatchingWindowSeconds: 0,
} as const satisfies PipelineOverrides;
