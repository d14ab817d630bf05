/** Retry/Catch around the work of a Task, Map or Parallel state, and the output of a matching Catcher. */
import { errorFields, StatesError } from "../errors";
import { QueryLanguage, type Catcher, type CompiledStateBase } from "../definition/compiled";
import { evaluateTyped } from "../jsonata/template";
import { applyResultPath } from "../jsonpath/dataflow";
import { commitAssign, jsonataBindings, pathRoots, statesVar } from "./bindings";
import type { Run, Thread } from "./context";
import { decorateStateError } from "./decorate";
import { findCatcher, runWithRetry } from "./retry";
import type { Step, Visit } from "../states/types";

async function catcherOutput(visit: Visit, catcher: Catcher, err: StatesError, run: Run, thread: Thread): Promise<unknown> {
  // A field a Fail state did not set stays absent (not recorded on AWS for a caught error-less Fail; kept
  // consistent with the uncaught case, which is).
  const fields = errorFields(err);
  const errorOutput: Record<string, string> = {};
  if (fields.error !== undefined) errorOutput.Error = fields.error;
  if (fields.cause !== undefined) errorOutput.Cause = fields.cause;
  if (visit.state.language === QueryLanguage.JSONata) {
    const states = statesVar(run, thread, visit.info, visit.input);
    states.errorOutput = errorOutput;
    const b = jsonataBindings(run, thread, states);
    const assigned = catcher.assign ? await evaluateTyped(catcher.assign, b, "object") : undefined;
    const output = catcher.output ? await catcher.output.evaluate(b) : errorOutput;
    commitAssign(thread, assigned, visit.state.name);
    return output;
  }
  const assigned = catcher.assignPath?.evaluate(pathRoots(run, thread, visit.info, errorOutput));
  const output = applyResultPath(catcher.resultPath, visit.input, errorOutput);
  commitAssign(thread, assigned, visit.state.name);
  return output;
}

/**
 * Runs `attempt` under the state's Retry policy; an error left over goes to the first matching Catcher,
 * whose output (JSONata Output/Assign, or JSONPath ResultPath) becomes the state's output.
 */
export async function runExecutionState(visit: Visit<CompiledStateBase>, run: Run, thread: Thread, attempt: () => Promise<Step>): Promise<Step> {
  const { state } = visit;
  try {
    return await runWithRetry(state.retry, run, thread, visit.info, attempt, (err) =>
      decorateStateError(err, state.name, visit.enteredEventId, run, thread),
    );
  } catch (e) {
    if (!(e instanceof StatesError) || e.terminal) throw e;
    const index = findCatcher(state.catch, e.error);
    if (index < 0) throw e;
    const catcher = (state.catch as readonly Catcher[])[index];
    run.probe?.caught(index, e);
    try {
      return { output: await catcherOutput(visit, catcher, e, run, thread), next: catcher.next };
    } catch (inner) {
      throw inner instanceof StatesError ? decorateStateError(inner, state.name, visit.enteredEventId, run, thread) : inner;
    }
  }
}
