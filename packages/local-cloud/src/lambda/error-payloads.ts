import type { LambdaFaultDecision } from "../faults";
import type { LambdaErrorPayload } from "./types";

/**
 * Error payloads Lambda itself writes when an invocation dies (not thrown by the handler). Shapes as the
 * service returns them, e.g. `{"errorType":"Sandbox.Timedout","errorMessage":"RequestId: <id> Error: Task
 * timed out after 3.00 seconds"}`: no trace.
 */
export function timeoutPayload(requestId: string, timeoutSeconds: number): LambdaErrorPayload {
  return {
    errorType: "Sandbox.Timedout",
    errorMessage: `RequestId: ${requestId} Error: Task timed out after ${timeoutSeconds.toFixed(2)} seconds`,
  };
}

/** The runtime process exited (process.exit, or killed). */
export function exitPayload(requestId: string, exit: { code?: number; signal?: "killed" }): LambdaErrorPayload {
  const reason =
    exit.signal !== undefined
      ? `Runtime exited with error: signal: ${exit.signal}`
      : exit.code === 0
        ? "Runtime exited without providing a reason"
        : `Runtime exited with error: exit status ${exit.code ?? 1}`;
  return { errorType: "Runtime.ExitError", errorMessage: `RequestId: ${requestId} Error: ${reason}` };
}

/** The environment ran out of memory (here: the worker's heap limit). */
export function outOfMemoryPayload(requestId: string): LambdaErrorPayload {
  return { errorType: "Runtime.OutOfMemory", errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: signal: killed` };
}

/** The handler returned more than the synchronous response limit. */
export const MAX_RESPONSE_BYTES = 6_291_556;
export function responseTooLargePayload(size: number): LambdaErrorPayload {
  return {
    errorType: "Function.ResponseSizeTooLarge",
    errorMessage: `Response payload size (${size} bytes) exceeded maximum allowed payload size (${MAX_RESPONSE_BYTES} bytes).`,
  };
}

/** What the caller sees for an injected `fail`: a transient error as the handler would throw it. */
export function injectedFailurePayload(decision: LambdaFaultDecision): LambdaErrorPayload {
  return { errorType: decision.errorType, errorMessage: decision.errorMessage, trace: [] };
}
