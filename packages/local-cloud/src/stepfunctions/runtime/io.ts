/** The end of a state's data flow: JSONata Assign/Output, or JSONPath ResultSelector/ResultPath/OutputPath/Assign. */
import { evaluateTyped } from "../jsonata/template";
import { applyResultPath, selectPath } from "../jsonpath/dataflow";
import type { Visit } from "../states/types";
import { commitAssign, jsonataBindings, pathRoots, statesVar } from "./bindings";
import type { Run, Thread } from "./context";

/**
 * JSONata: evaluates Assign and Output against `$states.input`/`$states.result` with the variable values from
 * before this state (AWS: all expressions of one state see the old values), then commits the assignments.
 * `result` undefined means the state has no result (Pass, Wait, Choice, Succeed).
 */
export async function finishJsonata(visit: Visit, run: Run, thread: Thread, result: unknown, defaultOutput: unknown): Promise<unknown> {
  const { state } = visit;
  if (!state.assign && !state.output) return defaultOutput;
  const states = statesVar(run, thread, visit.info, visit.input);
  if (result !== undefined) states.result = result;
  const b = jsonataBindings(run, thread, states);
  const assigned = state.assign ? await evaluateTyped(state.assign, b, "object") : undefined;
  const output = state.output ? await state.output.evaluate(b) : defaultOutput;
  commitAssign(thread, assigned, visit.state.name);
  return output;
}

/** JSONPath: InputPath (`null` gives `{}`). */
export function effectiveInput(visit: Visit, run: Run, thread: Thread): unknown {
  const p = visit.state.inputPath;
  const input = p === undefined ? visit.input : selectPath(p, pathRoots(run, thread, visit.info, visit.input));
  run.probe?.stage("afterInputPath", input);
  return input;
}

/**
 * JSONPath: ResultSelector (when `selector`), Assign (`$` = the selected result), ResultPath into the raw state
 * input (when `resultPath`), then OutputPath; assignments are committed last.
 */
export function finishJsonPath(visit: Visit, run: Run, thread: Thread, result: unknown, opts: { selector: boolean; resultPath: boolean }): unknown {
  const { state } = visit;
  let r = result;
  if (opts.selector && state.resultSelector) r = state.resultSelector.evaluate(pathRoots(run, thread, visit.info, r));
  if (opts.resultPath) run.probe?.stage("afterResultSelector", r);
  const assigned = state.assignPath ? state.assignPath.evaluate(pathRoots(run, thread, visit.info, r)) : undefined;
  let out = opts.resultPath ? applyResultPath(state.resultPath, visit.input, r) : r;
  if (opts.resultPath) run.probe?.stage("afterResultPath", out);
  if (state.outputPath !== undefined) out = selectPath(state.outputPath, pathRoots(run, thread, visit.info, out));
  commitAssign(thread, assigned, visit.state.name);
  return out;
}
