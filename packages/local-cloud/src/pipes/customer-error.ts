import { isThrottling } from "./throttling";

/**
 * A target call refused for the request itself (a 4xx other than a throttle: a ValidationException for an input over
 * StartSyncExecution's limit, a missing permission or resource). Pipes counts such a customer invocation error
 * against the SQS source's maximum receive count: the batch fails and its messages come back after their visibility
 * timeout, with no retry of its own ("Amazon EventBridge Pipes error handling and troubleshooting"). The same page
 * warns that "for nearly continuous 4xx errors ... the pipe can be automatically disabled": the synth bounds the
 * batch's bytes so that a batch of valid messages never meets this one.
 */
export function isCustomerError(error: unknown): boolean {
  if (typeof error !== "object" || error === null || isThrottling(error)) return false;
  const e = error as { $fault?: unknown; $metadata?: { httpStatusCode?: unknown } };
  const status = e.$metadata?.httpStatusCode;
  return e.$fault === "client" || (typeof status === "number" && status >= 400 && status < 500);
}
