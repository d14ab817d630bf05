/** Succeed: ends its scope successfully. */
import { QueryLanguage } from "../definition/compiled";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import type { StateType } from "./types";

export const succeedState: StateType = {
  fields: [],
  compile: (_raw, base) => base,
  async execute(visit, run, thread) {
    if (visit.state.language === QueryLanguage.JSONata) {
      return { output: await finishJsonata(visit, run, thread, undefined, visit.input), next: undefined };
    }
    const input = effectiveInput(visit, run, thread);
    return { output: finishJsonPath(visit, run, thread, input, { selector: false, resultPath: false }), next: undefined };
  },
};
