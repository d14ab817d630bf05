import type { PipeTarget } from "../pipes";
import type { ExecutionResult, StateMachine } from "../stepfunctions";

/**
 * A pipe target that runs one execution per batch, as StartSyncExecution does: the pipe reads the output,
 * a failed or timed-out execution is reported, never thrown.
 */
export function workflowTarget(machine: StateMachine, onFinished: (run: ExecutionResult) => void): PipeTarget {
  return async (input, { signal }) => {
    const run = await machine.execute(input as never, { signal });
    onFinished(run);
    if (run.status === "SUCCEEDED") return { status: "SUCCEEDED", output: run.output };
    if (run.status === "TIMED_OUT") return { status: "TIMED_OUT", error: run.error, cause: run.cause };
    return { status: "FAILED", error: run.error, cause: run.cause };
  };
}
