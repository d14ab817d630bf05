/** Pass: passes its input (or Result/Parameters, or JSONata Output) on. It has no Retry/Catch: an error in it fails its scope. */
import { QueryLanguage, type CompiledStateBase } from "../definition/compiled";
import { pathRoots } from "../runtime/bindings";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import type { StateType } from "./types";

interface PassState extends CompiledStateBase {
  readonly result?: unknown;
  readonly hasResult: boolean;
}

export const passState: StateType<PassState> = {
  fields: [],
  compile: (raw, base) => ({ ...base, result: raw.Result, hasResult: "Result" in raw }),
  async execute(visit, run, thread) {
    const { state } = visit;
    if (state.language === QueryLanguage.JSONata) {
      return { output: await finishJsonata(visit, run, thread, undefined, visit.input), next: state.next };
    }
    let result: unknown;
    if (state.hasResult) {
      result = state.result;
      run.probe?.stage("result", result);
    } else {
      const input = effectiveInput(visit, run, thread);
      result = state.parameters ? state.parameters.evaluate(pathRoots(run, thread, visit.info, input)) : input;
      run.probe?.stage("afterParameters", result);
    }
    return { output: finishJsonPath(visit, run, thread, result, { selector: false, resultPath: true }), next: state.next };
  },
};
