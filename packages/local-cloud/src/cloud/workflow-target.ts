import type { PipeTarget } from "../pipes";
import type { ExecutionResult, StateMachine } from "../stepfunctions";
import { assertSyncExecutionInput } from "./sync-execution-input";
import type { SyncExpressLimit } from "./sync-express-limit";

/**
 * A pipe target that runs one execution per batch, as StartSyncExecution does: the pipe reads the output,
 * a failed or timed-out execution is reported, never thrown. An input over 262,144 bytes of UTF-8 throws
 * ValidationException before any execution runs (sync-execution-input.ts), as AWS refuses it. With `limit`, a start
 * beyond the synchronous Express concurrency throws ThrottlingException before any execution runs (the pipe retries it).
 */
export function workflowTarget(machine: StateMachine, onFinished: (run: ExecutionResult) => void, limit?: SyncExpressLimit): PipeTarget {
  const execute = (input: unknown, signal: AbortSignal) => machine.execute(input as never, { signal });
  return async (input, { signal }) => {
    assertSyncExecutionInput(input);
    const run = limit ? await limit.run(() => execute(input, signal)) : await execute(input, signal);
    onFinished(run);
    if (run.status === "SUCCEEDED") return { status: "SUCCEEDED", output: run.output };
    if (run.status === "TIMED_OUT") return { status: "TIMED_OUT", error: run.error, cause: run.cause };
    return { status: "FAILED", error: run.error, cause: run.cause };
  };
}
