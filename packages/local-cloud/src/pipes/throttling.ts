/**
 * A target call the service refused as throttled. Pipes "automatically retries enrichment and target invocation on
 * any retryable AWS failures" and retries internal errors "an indefinite number of times", not counting them toward
 * an SQS source's maximum receive count ("Amazon EventBridge Pipes error handling and troubleshooting"): the batch
 * is held and the call retried after a backoff, never handed back to the queue as a failure.
 */

/** Throttling errors of the targets the local pipes call: Step Functions (ThrottlingException), Lambda (429). */
const THROTTLING_ERRORS: ReadonlySet<string> = new Set(["ThrottlingException", "TooManyRequestsException"]);

/** Longest pause between two throttled calls: AWS publishes no number; short, so a freed slot is taken soon. */
export const MAX_THROTTLE_BACKOFF_MS = 1000;

export function isThrottling(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { name?: unknown; $retryable?: { throttling?: unknown }; $metadata?: { httpStatusCode?: unknown } };
  return (typeof e.name === "string" && THROTTLING_ERRORS.has(e.name)) || e.$retryable?.throttling === true || e.$metadata?.httpStatusCode === 429;
}

/** Exponential, without jitter: the local clock is shared by seeded runs, and no random draw may change their paths. */
export function throttleBackoffMs(throttledSoFar: number, firstMs: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, throttledSoFar - 1), MAX_THROTTLE_BACKOFF_MS);
}
