/**
 * One downstream invocation's time and attempts, as the Invoke Task gives them: the timing rules, the retention rules
 * and the definition's Task timeout all read these.
 */
import type { ResolvedPipelineProps } from "./props";

/** Attempts of one downstream invocation: the first call plus the Lambda service-error retries. */
export function lambdaAttempts(p: ResolvedPipelineProps): number {
  return 1 + p.lambdaRetries;
}

/**
 * A cold start's Init phase, which the function's timeout does not count: "The Init phase is limited to 10 seconds"
 * (AWS Lambda, "Understanding the Lambda execution environment lifecycle"); when it runs out, Lambda retries the Init
 * within the invocation's own timeout. An invocation can thus take up to Init + the function's timeout.
 */
export const LAMBDA_INIT_SECONDS = 10;

/** Room after Init and the function's timeout, so that the function's own timeout fires before the Task's. */
const INVOKE_TIMEOUT_MARGIN_SECONDS = 5;

/** The longest one invocation attempt can run: a cold start's Init, then the handler until the function's timeout. */
export function invocationAttemptSeconds(p: ResolvedPipelineProps): number {
  return LAMBDA_INIT_SECONDS + p.function.timeoutSeconds;
}

/**
 * The Task timeout around the invocation: the function's timeout, a cold start's Init and a margin, so the Task never
 * gives up (and releases the claim) on a handler that still runs.
 */
export function invokeTimeoutSeconds(p: ResolvedPipelineProps): number {
  return invocationAttemptSeconds(p) + INVOKE_TIMEOUT_MARGIN_SECONDS;
}
